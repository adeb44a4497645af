package org.strata.peers;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.strata.twophase.ReportWriter;
import org.strata.twophase.SustainableRate;
import org.strata.twophase.TwoPhaseResult;
import org.strata.twophase.TwoPhaseRunner;

/**
 * Runs one two-phase configuration against every system a comparison lists, one after another,
 * each on fresh directories under {@code out/<label>/data}, with the same driver, keys, value
 * bytes, arrival process and sampler; writes each system's own report into {@code out/<label>/}
 * and the comparison ({@link ComparisonReport}) into {@code out}. Every system reads back every
 * key it loaded before its phases run.
 */
public final class CompareRunner {

  /** What to run. */
  public enum Mode {
    /** Load, testing and running phases. */
    ALL,
    /** Load only: the same-bytes load comparison. */
    LOAD,
    /** Load, testing, then a bisection for the highest sustainable rate. */
    FIND_SUSTAINABLE,
    /** Load, then point lookups of random loaded keys with each configured thread count. */
    LOOKUP
  }

  /**
   * One system's outcome.
   *
   * @param result its two-phase result (for {@link Mode#FIND_SUSTAINABLE}, every phase tried)
   * @param search the sustainable-rate search, or null
   */
  public record Outcome(TwoPhaseResult result, SustainableRate search) {}

  private final CompareConfig config;
  private final Path out;
  private final PrintStream console;
  private final boolean terminal;

  /**
   * @param console where progress goes (null: nowhere)
   * @param terminal true if {@code console} is a terminal
   */
  public CompareRunner(CompareConfig config, Path out, PrintStream console, boolean terminal) {
    this.config = config;
    this.out = out;
    this.console = console;
    this.terminal = terminal;
  }

  /**
   * Runs every system and writes the reports.
   *
   * @param phaseSeconds running-phase seconds of a sustainable-rate search (0: the
   *     configuration's running duration)
   */
  public List<Outcome> run(Mode mode, int phaseSeconds) throws Exception {
    for (SystemSpec spec : config.systems()) {
      if (spec instanceof RocksDbNativeSystem n) {
        if (mode != Mode.LOAD && mode != Mode.LOOKUP) {
          throw new IllegalArgumentException("systems: '" + n.label() + "' is a rocksdb-native"
              + " entry, which runs only in a load or lookup comparison (--phases load or"
              + " lookup): db_bench has no two-phase driver");
        }
        DbBenchLoad.resolve(n.executable());
      }
    }
    List<Outcome> outcomes = new ArrayList<>();
    int total = 0;
    for (SystemSpec spec : config.systems()) {
      total += spec instanceof RocksDbNativeSystem ? 1
          : spec.targets(config.twoPhase(), mode == Mode.LOAD).size();
    }
    long start = System.nanoTime();
    int at = 0;
    for (SystemSpec spec : config.systems()) {
      if (spec instanceof RocksDbNativeSystem n) {
        Path dir = out.resolve(n.label());
        if (console != null) {
          console.println(heading(++at, total, start) + n.label()
              + ": RocksDB's db_bench in a process of its own");
        }
        java.nio.file.Files.createDirectories(dir);
        TwoPhaseResult r = mode == Mode.LOOKUP
            ? n.load(config.twoPhase()).lookups(dir, config.lookup(), console)
            : n.load(config.twoPhase()).run(dir, console);
        ReportWriter.write(dir, r);
        outcomes.add(new Outcome(r, null));
        continue;
      }
      for (SystemSpec.Run run : spec.targets(config.twoPhase(), mode == Mode.LOAD)) {
        Path dir = out.resolve(run.target().label());
        if (console != null) {
          console.println(heading(++at, total, start) + run.target().label() + ": "
              + run.target().description());
        }
        TwoPhaseRunner runner = new TwoPhaseRunner(run.config(), run.target(), dir, console,
            terminal, false, true);
        switch (mode) {
          case LOAD -> {
            TwoPhaseResult r = runner.runLoadOnly();
            ReportWriter.write(dir, r);
            outcomes.add(new Outcome(r, null));
          }
          case LOOKUP -> {
            TwoPhaseResult r = runner.runLookups(config.lookup());
            ReportWriter.write(dir, r);
            outcomes.add(new Outcome(r, null));
          }
          case ALL -> {
            TwoPhaseResult r = runner.run();
            ReportWriter.write(dir, r);
            outcomes.add(new Outcome(r, null));
          }
          case FIND_SUSTAINABLE -> {
            int seconds = phaseSeconds > 0 ? phaseSeconds
                : run.config().running().durationSeconds();
            SustainableRate s = runner.findSustainable(seconds, 0.05);
            ReportWriter.writeSearch(dir, s);
            outcomes.add(new Outcome(s.result(), s));
          }
          default -> throw new IllegalStateException(mode.toString());
        }
      }
    }
    ComparisonReport.write(out, config, mode, outcomes);
    return outcomes;
  }

  /**
   * The heading of system {@code at} of {@code total}, with the time so far and, from the second
   * system on, the time left at the pace of those before it.
   */
  static String heading(int at, int total, long startNanos) {
    double elapsed = (System.nanoTime() - startNanos) / 1e9;
    return String.format(java.util.Locale.ROOT, "== [%d of %d%s] ", at, total, at == 1 ? ""
        : String.format(java.util.Locale.ROOT, "; %.0f min so far, about %.0f min left",
            elapsed / 60, elapsed / 60 / (at - 1) * (total - at + 1)));
  }
}
