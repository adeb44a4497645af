package org.strata.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.strata.lsm.InvalidConfigurationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code strata} command line. Exit codes: 0 success; 1 a key was not found, verify found
 * faults, or the store failed at run time; 2 a usage error (bad flag or value, bad configuration,
 * a key or value over its limit). A failure prints one line; its stack trace goes to the log file
 * the line names ({@code strata-<pid>.log} in the temporary directory; {@code -Dstrata.log.file}
 * chooses another), or to the terminal too with {@code --verbose}. A usage error prints its one
 * line and where to find help ({@code strata help COMMAND} or {@code strata COMMAND --help}), not
 * the whole help text.
 */
@Command(name = "strata", mixinStandardHelpOptions = true, version = "strata 0.1.0",
    description = "LSM B+-tree storage with pluggable merge policies and schedulers.",
    subcommands = {LoadCommand.class, PutCommand.class, GetCommand.class, DeleteCommand.class,
        ScanCommand.class, StatsCommand.class, VerifyCommand.class, ReadBenchCommand.class,
        SimulateCommand.class, TuneCommand.class, FiguresCommand.class, DesCommand.class,
        ReproduceCommand.class,
        ImportCommand.class, QueryCommand.class, GenRecordsCommand.class,
        FeedServerCommand.class, TwoPhaseCommand.class, CompareCommand.class,
        CrashTestCommand.class, MoveLogCommand.class, LsmCommand.class, JfrReportCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements Runnable {
  /** System property naming the log file; set by {@link #main} unless given. */
  static final String LOG_FILE_PROPERTY = "strata.log.file";

  @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "Print stack traces of errors.")
  boolean verbose;

  @Option(names = "--log-level", scope = CommandLine.ScopeType.INHERIT, paramLabel = "LEVEL",
      defaultValue = "info", converter = LevelConverter.class,
      description = "Level of the LOG file in the store or dataset directory: off, error, warn,"
          + " info (default: opens, recoveries, flushes, merges), debug or trace. The terminal"
          + " shows warnings and errors only.")
  org.apache.logging.log4j.Level logLevel = org.apache.logging.log4j.Level.INFO;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** How this process's arguments became strings: exact, or decoded from argv by the JVM. */
  private ArgText argv = ArgText.EXACT;

  /** How the arguments of the command {@code spec} belongs to became strings. */
  static ArgText argv(CommandLine.Model.CommandSpec spec) {
    return spec.root().userObject() instanceof Main m ? m.argv : ArgText.EXACT;
  }

  /** Reads a Log4j level by name; anything else is a usage error naming the levels. */
  static final class LevelConverter implements CommandLine.ITypeConverter<
      org.apache.logging.log4j.Level> {
    @Override
    public org.apache.logging.log4j.Level convert(String value) {
      org.apache.logging.log4j.Level l = org.apache.logging.log4j.Level.toLevel(value, null);
      if (l == null || l == org.apache.logging.log4j.Level.ALL
          || l == org.apache.logging.log4j.Level.FATAL) {
        throw new CommandLine.TypeConversionException("'" + value + "' is not allowed; allowed:"
            + " off, error, warn, info, debug, trace");
      }
      return l;
    }
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /**
   * Runs the command line with the given streams; returns the exit code. The arguments are Java
   * strings, taken as they are (see {@link ArgText}).
   */
  public static int run(PrintStream out, PrintStream err, String... args) {
    return run(out, err, ArgText.EXACT, args);
  }

  /**
   * As {@link #run(PrintStream, PrintStream, String...)}, with arguments that became strings as
   * {@code argv} says.
   */
  static int run(PrintStream out, PrintStream err, ArgText argv, String... args) {
    Main main = new Main();
    main.argv = argv;
    CommandLine cl = new CommandLine(main);
    // Every path: not empty (Path.of("") is the working directory), and what was typed.
    cl.registerConverter(Path.class, argv.pathConverter());
    // Every option's default in every --help, without repeating it in each description.
    cl.getCommandSpec().usageMessage().showDefaultValues(true);
    cl.getSubcommands().values().forEach(
        c -> c.getCommandSpec().usageMessage().showDefaultValues(true));
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose")
        || System.getenv("STRATA_DEBUG") != null;
    boolean[] failed = {false};
    cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
      failed[0] = true;
      if (ex instanceof InvalidConfigurationException || ex instanceof IllegalArgumentException) {
        err.println("error: " + ex.getMessage());
        if (verbose) {
          ex.printStackTrace(err);
        }
        return 2;
      }
      // One line on the terminal; the stack trace goes to the log file that line names.
      LogManager.getLogger(Main.class).error("strata {} failed", String.join(" ", args), ex);
      err.println("error: " + ErrorLine.of(ex, logFile()));
      if (verbose) {
        ex.printStackTrace(err);
      }
      return 1;
    });
    cl.setParameterExceptionHandler((ex, a) -> {
      failed[0] = true;
      return usageError(ex, a);
    });
    org.apache.logging.log4j.Level rootLevel = LogManager.getRootLogger().getLevel();
    int code;
    Map<Path, String> unwritten;
    try {
      code = cl.execute(args);
    } finally {
      unwritten = StoreLog.detachAll(rootLevel);
    }
    // A LOG that could not be written is one line, and only when no error line was printed: a
    // failed command prints its one line (the same full disk is likely its cause).
    if (!failed[0]) {
      unwritten.forEach((file, why) -> err.println(StoreLog.warning(file, why)));
    }
    return code;
  }

  /**
   * A usage error: its one line, picocli's suggestions for a mistyped flag or command, and where
   * the full help is; exit 2.
   */
  private static int usageError(CommandLine.ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println("error: " + ex.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    String name = cl.getCommandSpec().qualifiedName();
    err.println(name.equals("strata") ? "Try 'strata help' for the list of commands."
        : "Try '" + name + " --help' for its options.");
    err.flush();
    return 2;
  }

  /** The log file of this process (see log4j2.xml): where stack traces go. */
  static Path logFile() {
    String f = System.getProperty(LOG_FILE_PROPERTY);
    return f != null ? Path.of(f) : Path.of(System.getProperty("java.io.tmpdir"), "strata.log");
  }

  public static void main(String[] args) {
    // Before anything logs: one log file per process, created only if something is logged.
    if (System.getProperty(LOG_FILE_PROPERTY) == null) {
      System.setProperty(LOG_FILE_PROPERTY, Path.of(System.getProperty("java.io.tmpdir"),
          "strata-" + ProcessHandle.current().pid() + ".log").toString());
    }
    int code = run(System.out, System.err, ArgText.ofThisJvm(), args);
    System.out.flush();
    System.exit(code);
  }
}
