package org.strata.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.strata.crash.CrashLoop;
import org.strata.crash.WriterKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code strata crashtest}: the crash-test loop of docs/reliability.md. */
@Command(name = "crashtest", mixinStandardHelpOptions = true,
    description = "Kill writer processes with SIGKILL again and again (at named crash points of"
        + " flushes, merges, manifest writes and log changes, or after random delays), reopen"
        + " and check that every acknowledged write is there with its exact value, nothing"
        + " unwritten is, verify is clean, secondary indexes agree and no temporary or unlisted"
        + " file is left. Policies and durability modes (sync, group, none; unlogged for a store"
        + " without TRIAD) rotate. Prints a"
        + " line per kill and a summary; exits 1 on any loss the durability mode does not allow,"
        + " any failed check or leftover file (docs/reliability.md).")
final class CrashTestCommand implements Callable<Integer> {
  @Option(names = "--kills", paramLabel = "N", defaultValue = "50",
      description = "Stop after N kills.")
  int kills;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "0",
      description = "Start no kill after S seconds (0: no limit).")
  long seconds;

  @Option(names = "--seed", paramLabel = "X",
      description = "Seed of every random choice and of the writes (default: from the clock;"
          + " printed, so a run can be repeated).")
  Long seed;

  @Option(names = "--writer", paramLabel = "store|dataset|feed|all", defaultValue = "all",
      description = "What writes: a store (put/delete), a dataset with secondary indexes"
          + " (import with acknowledgements), a feed server over 127.0.0.1, or all of them.")
  String writer;

  @Option(names = "--dir", paramLabel = "D",
      description = "Directory for the stores (empty or absent; kept). Default: a new"
          + " temporary directory, deleted after a passing run.")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (kills < 1) {
      throw new ParameterException(spec.commandLine(), "--kills must be at least 1, got "
          + kills);
    }
    if (seconds < 0) {
      throw new ParameterException(spec.commandLine(), "--seconds must be 0 or more, got "
          + seconds);
    }
    List<WriterKind> writers;
    try {
      writers = WriterKind.parseSelection(writer);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    boolean temporary = dir == null;
    Path d = temporary ? Files.createTempDirectory("strata-crashtest") : dir;
    if (!temporary && Files.exists(d)) {
      if (!Files.isDirectory(d)) {
        throw new ParameterException(spec.commandLine(), "--dir " + d + " is not a directory");
      }
      try (Stream<Path> s = Files.list(d)) {
        if (s.findAny().isPresent()) {
          throw new ParameterException(spec.commandLine(), "--dir " + d + " is not empty; the"
              + " loop needs an empty or absent directory (it knows the state of what it wrote"
              + " only)");
        }
      }
    }
    long s = seed != null ? seed : System.nanoTime() & 0xFFFFFFFL;
    PrintWriter out = spec.commandLine().getOut();
    CrashLoop.Summary sum = CrashLoop.run(new CrashLoop.Settings(kills, seconds, s, writers, d,
        CrashLoop.javaCommand()), out);
    if (temporary && sum.ok()) {
      deleteTree(d);
    } else {
      out.println("stores kept in " + d);
    }
    out.flush();
    return sum.ok() ? 0 : 1;
  }

  private static void deleteTree(Path d) throws java.io.IOException {
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
