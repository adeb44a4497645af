package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.cli.CliTest.Result;

/** {@code strata jfr-report} on a recording of {@code load}, and on a file that is not there. */
class JfrReportCommandTest {
  @TempDir Path tmp;

  @Test
  void aRecordingOfALoadGivesItsReport() throws Exception {
    Path jfr = tmp.resolve("load.jfr");
    try (Recording rec = new Recording()) {
      rec.enable("strata.Flush");
      rec.enable("strata.Merge");
      rec.start();
      LsmCommandTest.store(tmp);
      rec.stop();
      rec.dump(jfr);
    }
    Path out = tmp.resolve("report");
    Result r = CliTest.run("jfr-report", "--jfr", jfr.toString(), "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("report: " + out.resolve("report.md"));
    assertThat(Files.readString(out.resolve("report.md"))).contains("| store |")
        .contains("| store | flushes");
    assertThat(out.resolve("timeseries.csv")).isNotEmptyFile();
  }

  @Test
  void aMissingRecordingIsAUsageErrorNamingIt() {
    Result r = CliTest.run("jfr-report", "--jfr", tmp.resolve("none.jfr").toString(), "--out",
        tmp.resolve("out").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip().lines()).hasSize(1).first().asString().contains("none.jfr")
        .contains("does not exist");
  }
}
