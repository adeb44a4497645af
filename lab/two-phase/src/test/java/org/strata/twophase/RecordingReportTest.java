package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StallCause;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;

/**
 * The report of a JFR recording: recorded around a store's workload with flushes, merges and
 * stalls, its totals equal the store's own statistics (one source: the engine's events), and the
 * per-second series add up to the totals.
 */
class RecordingReportTest {
  @TempDir Path tmp;

  @Test
  void theTotalsOfARecordingAreTheStoresStatistics() throws Exception {
    Path jfr = tmp.resolve("run.jfr");
    StoreStats st;
    StoreConfig config = StoreConfig.defaults()
        .withMemoryComponent(MemoryComponentConfig.of(64 << 10, 2))
        .withMergePolicy(new NamedPlugin("tiering", java.util.Map.of("size-ratio", "3")));
    try (Recording rec = new Recording()) {
      rec.enable("strata.Flush");
      rec.enable("strata.Merge");
      rec.enable("strata.WriteStall");
      rec.enable("strata.ThrottleWait");
      rec.enable("strata.LogForce");
      rec.start();
      try (LsmStore s = LsmStore.open(tmp.resolve("db"), config, StoreEnvironment.standard())) {
        byte[] v = new byte[200];
        for (int i = 0; i < 20_000; i++) {
          s.put(String.format("k%07d", (i * 7919L) % 20_000).getBytes(StandardCharsets.US_ASCII),
              v);
        }
        s.flush();
        s.awaitMerges();
        st = s.stats();
      }
      rec.stop();
      rec.dump(jfr);
    }
    Path out = tmp.resolve("report");
    RecordingReport.write(jfr, out);
    JsonNode sum = new ObjectMapper().readTree(out.resolve(RecordingReport.SUMMARY).toFile());
    JsonNode db = sum.at("/stores/db");
    assertThat(db.get("flushes").asLong()).isEqualTo(st.flushes()).isPositive();
    assertThat(db.get("bytesFlushed").asLong()).isEqualTo(st.bytesFlushed());
    assertThat(db.get("merges").asLong()).isEqualTo(st.merges()).isPositive();
    assertThat(db.get("bytesMerged").asLong()).isEqualTo(st.bytesMerged());
    long stalls = 0;
    for (StallCause c : StallCause.values()) {
      assertThat(db.at("/stalls/" + c.jsonName() + "/count").asLong()).as(c.jsonName())
          .isEqualTo(st.stalls().get(c).count());
      stalls += st.stalls().get(c).count();
    }
    assertThat(stalls).as("the workload stalls (64 KB memory components)").isPositive();
    List<String> rows = Files.readAllLines(out.resolve(RecordingReport.CSV));
    assertThat(rows.get(0)).startsWith("second,flushes,flush_bytes,merges,merge_bytes");
    long flushBytes = 0;
    long flushes = 0;
    long started = 0;
    for (String row : rows.subList(1, rows.size())) {
      String[] f = row.split(",");
      flushes += Long.parseLong(f[1]);
      flushBytes += Long.parseLong(f[2]);
      started += Long.parseLong(f[5]);
    }
    assertThat(rows).hasSize((int) sum.get("seconds").asLong() + 1);
    assertThat(flushes).isEqualTo(st.flushes());
    assertThat(flushBytes).isEqualTo(st.bytesFlushed());
    assertThat(started).isEqualTo(stalls);
    assertThat(out.resolve(RecordingReport.IO_CHART)).isNotEmptyFile();
    assertThat(out.resolve(RecordingReport.STALL_CHART)).isNotEmptyFile();
    assertThat(Files.readString(out.resolve(RecordingReport.REPORT)))
        .contains("| db | " + String.format("%,d", st.flushes()) + " |");
  }

  @Test
  void aRecordingWithoutStrataEventsIsRefusedSayingHowToRecordOne() throws Exception {
    Path jfr = tmp.resolve("empty.jfr");
    try (Recording rec = new Recording()) {
      rec.enable("jdk.CPULoad");
      rec.start();
      rec.stop();
      rec.dump(jfr);
    }
    assertThatThrownBy(() -> RecordingReport.write(jfr, tmp.resolve("out")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no Strata event")
        .hasMessageContaining("StartFlightRecording");
  }
}
