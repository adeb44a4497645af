package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * README's synopsis of {@code bin/strata} ("Using the command line") against the commands' own
 * options, as {@code --help} prints them: every command has a line, every option a line names
 * exists, and every option of a command is on its line, except those every command has and README
 * describes once ({@code --help}, {@code --version}, {@code --verbose}, {@code --log-level}).
 */
class ReadmeSynopsisTest {
  /** Options of every command, described once in README's text. */
  private static final Set<String> COMMON = Set.of("--help", "--version", "--verbose",
      "--log-level");
  private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");

  /** The synopsis lines ({@code bin/strata ...}, continuation lines joined), by command name. */
  static Map<String, String> synopsis() throws Exception {
    Path readme = Path.of("../../README.md");
    String text = Files.readString(readme);
    int at = text.indexOf("## Using the command line");
    assertThat(at).as("README has 'Using the command line'").isNotNegative();
    int open = text.indexOf("```\n", at);
    int close = text.indexOf("```\n", open + 4);
    List<String> lines = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String l : text.substring(open + 4, close).split("\n")) {
      cur.append(l.endsWith("\\") ? l.substring(0, l.length() - 1) : l).append(' ');
      if (!l.endsWith("\\")) {
        lines.add(cur.toString().trim());
        cur.setLength(0);
      }
    }
    Map<String, String> byCommand = new LinkedHashMap<>();
    for (String l : lines) {
      if (!l.startsWith("bin/strata ") || l.startsWith("bin/strata asterixdb")) {
        continue; // bin/ycsb and the AsterixDB commands have their own launchers and pages
      }
      String names = l.split("\\s+")[1];
      for (String name : names.split("\\|")) {
        byCommand.merge(name, l, (a, b) -> a + " " + b);
      }
    }
    return byCommand;
  }

  @Test
  void everyCommandAndEachOfItsOptionsIsInTheSynopsisAndNothingElse() throws Exception {
    Map<String, String> synopsis = synopsis();
    CommandLine main = new CommandLine(new Main());
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, CommandLine> e : main.getSubcommands().entrySet()) {
      String name = e.getKey();
      if (name.equals("help")) {
        continue;
      }
      String line = synopsis.get(name);
      if (line == null) {
        problems.add(name + ": no synopsis line");
        continue;
      }
      CommandSpec spec = e.getValue().getCommandSpec();
      Set<String> known = new TreeSet<>();
      for (OptionSpec o : spec.options()) {
        for (String n : o.names()) {
          if (n.startsWith("--")) {
            known.add(n);
          }
        }
        String longest = o.longestName();
        if (!o.hidden() && longest.startsWith("--") && !COMMON.contains(longest)
            && !containsOption(line, o)) {
          problems.add(name + ": " + longest + " is missing from its synopsis");
        }
      }
      Matcher m = OPTION.matcher(line);
      while (m.find()) {
        if (!known.contains(m.group())) {
          problems.add(name + ": the synopsis names " + m.group() + ", which it does not have");
        }
      }
    }
    for (String name : synopsis.keySet()) {
      if (!main.getSubcommands().containsKey(name)) {
        problems.add(name + ": in the synopsis but not a command");
      }
    }
    assertThat(problems).as("README 'Using the command line' against --help").isEmpty();
  }

  private static boolean containsOption(String line, OptionSpec o) {
    for (String n : o.names()) {
      Matcher m = OPTION.matcher(line);
      while (m.find()) {
        if (m.group().equals(n)) {
          return true;
        }
      }
    }
    return false;
  }
}
