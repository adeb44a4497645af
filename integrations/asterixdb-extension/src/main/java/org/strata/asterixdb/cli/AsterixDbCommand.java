package org.strata.asterixdb.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.strata.lsm.InvalidConfigurationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code strata asterixdb}: an AsterixDB 0.9.8 cluster with Strata's extension ({@code start})
 * and a SQL++ client for it ({@code sql}). It runs from its own class path (the extension's jar
 * and AsterixDB's), which {@code bin/strata} uses for this command only. Exit codes: 0 success;
 * 1 a statement or the cluster failed; 2 a usage error.
 */
@Command(name = "asterixdb", mixinStandardHelpOptions = true,
    description = "Strata inside AsterixDB 0.9.8: start an embedded cluster, send SQL++, run a"
        + " two-phase experiment, install into a server distribution.",
    subcommands = {StartCommand.class, SqlCommand.class, AsterixDbTwoPhaseCommand.class,
        InstallCommand.class})
public final class AsterixDbCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "a subcommand is required: start, sql, two-phase, install");
  }

  /** Runs the command with the given streams; returns the exit code. */
  public static int run(PrintStream out, PrintStream err, String... args) {
    CommandLine cl = new CommandLine(new AsterixDbCommand());
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
      err.println("error: " + ex.getMessage());
      if (System.getenv("STRATA_DEBUG") != null) {
        ex.printStackTrace(err);
      }
      return ex instanceof InvalidConfigurationException
          || ex instanceof IllegalArgumentException ? 2 : 1;
    });
    return cl.execute(args);
  }

  /** The entry point {@code bin/strata asterixdb ...} starts. */
  public static void main(String[] args) {
    int code = run(System.out, System.err, args);
    System.out.flush();
    System.exit(code);
  }
}
