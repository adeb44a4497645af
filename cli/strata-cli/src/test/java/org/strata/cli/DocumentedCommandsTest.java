package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README and docs/*.md true to the command line: every {@code bin/strata} command they
 * show (synopses and examples, with their continuation lines) names a subcommand that exists, and
 * every {@code --flag} it shows is one that subcommand's {@code --help} lists ({@code bin/strata
 * asterixdb ...} runs another launcher, with the AsterixDB extension's class path, and is left
 * out).
 */
class DocumentedCommandsTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();
  private static final Pattern FLAG = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]*)");

  /** A documented command: where it is, the subcommand path and the flags it shows. */
  private record Documented(String where, List<String> command, Set<String> flags) {}

  private static List<Documented> documented() throws Exception {
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<Documented> all = new ArrayList<>();
    for (Path f : files) {
      List<String> lines = Files.readAllLines(f);
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i).trim();
        if (l.startsWith("$ ")) {
          l = l.substring(2);
        }
        int at = l.indexOf("bin/strata ");
        if (at != 0) {
          continue;
        }
        StringBuilder text = new StringBuilder(l);
        int j = i;
        while (text.toString().endsWith("\\") && j + 1 < lines.size()) {
          text.setLength(text.length() - 1);
          text.append(' ').append(lines.get(++j).trim());
        }
        String cmd = text.toString().replaceAll("#.*$", "").replaceAll("\\(defaults:.*", "");
        String[] words = cmd.substring("bin/strata ".length()).trim().split("\\s+");
        List<String> path = new ArrayList<>();
        for (String w : words) {
          if (!w.matches("[a-z][a-z0-9|-]*")) {
            break;
          }
          path.add(w);
        }
        Set<String> flags = new LinkedHashSet<>();
        Matcher m = FLAG.matcher(cmd);
        while (m.find()) {
          flags.add(m.group(1));
        }
        if (!path.isEmpty() && path.get(0).equals("asterixdb")) {
          continue; // bin/strata runs these with the extension's own launcher and class path
        }
        String where = ROOT.relativize(f) + ":" + (i + 1);
        // "put|get|delete" documents three commands with the same flags.
        for (String alt : path.isEmpty() ? new String[0] : path.get(0).split("\\|")) {
          List<String> p = new ArrayList<>(path);
          p.set(0, alt);
          all.add(new Documented(where, p, flags));
        }
      }
    }
    return all;
  }

  @Test
  void everyDocumentedCommandAndFlagExists() throws Exception {
    List<Documented> all = documented();
    assertThat(all).as("the README shows the command line").hasSizeGreaterThan(15);
    for (Documented d : all) {
      // The subcommand path, then --help: the longest prefix of words that is a command.
      CliTest.Result help = null;
      for (int n = d.command().size(); n >= 1 && help == null; n--) {
        List<String> args = new ArrayList<>(d.command().subList(0, n));
        args.add("--help");
        CliTest.Result r = CliTest.run(args.toArray(String[]::new));
        if (r.code() == 0) {
          help = r;
        }
      }
      assertThat(help).as(d.where() + ": 'strata " + d.command().get(0) + "' is a command")
          .isNotNull();
      for (String flag : d.flags()) {
        assertThat(help.out()).as(d.where() + ": strata " + String.join(" ", d.command())
            + " documents " + flag).containsPattern("(?m)(^|[ ,])" + Pattern.quote(flag)
            + "([=, \\[]|$)");
      }
    }
  }
}
