package org.strata.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.strata.lsm.InvalidConfigurationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code strata} command line. Exit codes: 0 success; 1 a key was not found, verify found
 * faults, or the store failed at run time; 2 a usage error (bad flag or value, bad configuration,
 * a key or value over its limit).
 */
@Command(name = "strata", mixinStandardHelpOptions = true, version = "strata 0.1.0",
    description = "LSM B+-tree storage with pluggable merge policies and schedulers.",
    subcommands = {LoadCommand.class, PutCommand.class, GetCommand.class, DeleteCommand.class,
        ScanCommand.class, StatsCommand.class, VerifyCommand.class, ReadBenchCommand.class,
        SimulateCommand.class, TuneCommand.class, FiguresCommand.class, DesCommand.class,
        ImportCommand.class, QueryCommand.class, GenRecordsCommand.class,
        FeedServerCommand.class, TwoPhaseCommand.class, CompareCommand.class})
public final class Main implements Runnable {
  @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "Print stack traces of errors.")
  boolean verbose;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** Runs the command line with the given streams; returns the exit code. */
  public static int run(PrintStream out, PrintStream err, String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose")
        || System.getenv("STRATA_DEBUG") != null;
    cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
      if (ex instanceof InvalidConfigurationException || ex instanceof IllegalArgumentException) {
        err.println("error: " + ex.getMessage());
        if (verbose) {
          ex.printStackTrace(err);
        }
        return 2;
      }
      err.println("error: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
      if (verbose) {
        ex.printStackTrace(err);
      }
      return 1;
    });
    return cl.execute(args);
  }

  public static void main(String[] args) {
    int code = run(System.out, System.err, args);
    System.out.flush();
    System.exit(code);
  }
}
