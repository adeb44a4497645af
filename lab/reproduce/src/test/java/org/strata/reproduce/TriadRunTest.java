package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.IoClass;
import org.strata.reproduce.TriadReproduction.Run;
import org.strata.reproduce.TriadReproduction.Variant;

/**
 * One TRIAD run on the engine: a drained run charges the work its operations left behind (the
 * last memory component's flush and the merges it starts) before the counters are read; a run on
 * a device model has the device's counters, merges' reads included.
 */
class TriadRunTest {
  @TempDir Path tmp;

  private static TriadReproductionConfig config(com.fasterxml.jackson.databind.JsonNode device) {
    // 2,000 keys, a memory component far larger than the run's 300 updates: nothing would be
    // flushed during the run itself.
    return new TriadReproductionConfig(2000, 100, 1 << 20, 0.5, 300, List.of(0.1), List.of(
        new TriadReproductionConfig.Workload("WS3", 1, 1)), 65536, 262144, 10, 4, 24, 0.4, 6, 1, 0,
        null, 0, 0, 0, 0, 0, 7, device, List.of(), 0, null);
  }

  private ReproductionContext ctx() {
    return new ReproductionContext(tmp.resolve("out"), "test",
        new PrintStream(OutputStream.nullOutputStream()));
  }

  @Test
  void aDrainedRunChargesTheFlushItsOperationsLeftBehind() throws Exception {
    TriadReproductionConfig cfg = config(null);
    TriadReproductionConfig.Workload ws3 = cfg.workloads().get(0);
    Run undrained = TriadReproduction.run(cfg, ws3, 0.1, Variant.BASELINE,
        TriadReproduction.storeConfig(cfg, Variant.BASELINE), ctx(), 300, 0, 0, false);
    Run drained = TriadReproduction.run(cfg, ws3, 0.1, Variant.BASELINE,
        TriadReproduction.storeConfig(cfg, Variant.BASELINE), ctx(), 300, 0, 0, true);
    assertThat(undrained.flushes()).as("the run alone fills no memory component").isZero();
    assertThat(undrained.flushBytes()).isZero();
    assertThat(drained.drained()).isTrue();
    assertThat(drained.flushes()).as("the drain flushed the run's updates").isEqualTo(1);
    assertThat(drained.flushBytes()).as("about 270 updates of 108 bytes")
        .isGreaterThan(20_000);
  }

  @Test
  void aRunOnADeviceCarriesTheDevicesCountersMergeReadsIncluded() throws Exception {
    TriadReproductionConfig cfg = config(new com.fasterxml.jackson.databind.ObjectMapper()
        .createObjectNode().put("name", "test").put("write-bandwidth", "256MB"));
    TriadReproductionConfig.Workload ws3 = cfg.workloads().get(0);
    // 20,000 updates of a small memory component: flushes and level-0 merges.
    TriadReproductionConfig small = new TriadReproductionConfig(2000, 100, 16384, 0.5, 20_000,
        List.of(0.1), cfg.workloads(), 65536, 262144, 10, 4, 24, 0.4, 6, 1, 0, null, 0, 0, 0, 0, 0,
        7, cfg.device(), List.of(), 0, null);
    Run r = TriadReproduction.run(small, ws3, 0.1, Variant.BASELINE,
        TriadReproduction.storeConfig(small, Variant.BASELINE), ctx(), 20_000, 0, 0, true);
    assertThat(r.device().present()).isTrue();
    assertThat(r.merges()).isPositive();
    assertThat(r.device().read(IoClass.MERGE)).as("merges' reads are charged").isPositive();
    assertThat(r.device().written(IoClass.MERGE)).as("merges' writes").isGreaterThanOrEqualTo(
        r.mergeBytes());
    assertThat(r.device().written(IoClass.FLUSH)).as("flushes' writes").isPositive();
  }
}
