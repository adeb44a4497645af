package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help} renders without picocli's format warnings: option descriptions
 * are format strings, so a lone {@code %} (as in "within 5%") makes picocli print a warning and
 * show the raw text.
 */
class HelpTextTest {
  @Test
  void everyCommandsHelpRendersWithoutAFormatWarning() {
    List<CommandLine> all = new ArrayList<>();
    collect(new CommandLine(new Main()), all);
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    List<String> warned = new ArrayList<>();
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      for (CommandLine cl : all) {
        captured.reset();
        String usage = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(usage).isNotBlank();
        String printed = captured.toString(StandardCharsets.UTF_8);
        if (printed.contains("picocli WARN")) {
          warned.add(cl.getCommandSpec().qualifiedName() + ": " + printed.trim());
        }
      }
    } finally {
      System.setErr(err);
    }
    assertThat(all.size()).as("commands checked").isGreaterThan(10);
    assertThat(warned).as("commands whose help text made picocli warn").isEmpty();
  }

  private static void collect(CommandLine cl, List<CommandLine> into) {
    into.add(cl);
    for (CommandLine sub : cl.getSubcommands().values()) {
      if (!into.contains(sub)) {
        collect(sub, into);
      }
    }
  }
}
