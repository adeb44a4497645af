package org.strata.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.strata.twophase.RecordingReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata jfr-report}: the report of a JVM Flight Recorder recording of any run of Strata
 * ({@link RecordingReport}; docs/observing.md, "A report from a recording").
 */
@Command(name = "jfr-report", mixinStandardHelpOptions = true,
    description = "Write the report of a JFR recording of a run of Strata (any run: two-phase,"
        + " YCSB, an application started with -XX:StartFlightRecording): bytes flushed and merged,"
        + " stalls by cause, I/O budget waits, log forces and collector pauses per second"
        + " (timeseries.csv, charts, report.md) and per store (summary.json).")
final class JfrReportCommand implements Callable<Integer> {
  @Option(names = "--jfr", required = true, paramLabel = "FILE",
      description = "The recording (.jfr).")
  Path jfr;

  @Option(names = "--out", required = true, paramLabel = "DIR",
      description = "The directory to write the report into (created if missing).")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (!Files.isRegularFile(jfr)) {
      throw new IllegalArgumentException("--jfr " + jfr + (Files.exists(jfr)
          ? " is not a file" : " does not exist"));
    }
    RecordingReport.write(jfr, out);
    spec.commandLine().getOut().println("report: " + out.resolve(RecordingReport.REPORT));
    return 0;
  }
}
