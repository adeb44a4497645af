package org.strata.sim.des;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;

/**
 * The ingest phase (Mao et al.'s experiment) on setups small enough to follow by hand: 8 entries
 * of 128 bytes fill a 1 KB memory component, whose flush takes 1 s at 1 KB/s.
 */
class IngestPhaseTest {
  private static final NamedPlugin FAIR = new NamedPlugin("fair", Map.of());

  /** 1,024 keys, 8 a flush (so 128 flushes at most), 1 KB/s, the writer at {@code rate}/s. */
  private static DesSetup setup(double rate) {
    return new DesSetup(1024, 128, 1024, 2, 1024, 4096, rate, "none", "asap", 1, 1);
  }

  private static List<FlushSample> ingest(String policy, Map<String, String> params,
      double rate, long flushes) {
    List<FlushSample> seen = new ArrayList<>();
    DesPhaseResult r = DiscreteEventSimulator.of(setup(rate), new NamedPlugin(policy, params), FAIR)
        .ingest(flushes, seen::add);
    assertThat(r.phase()).isEqualTo("ingest");
    assertThat(seen).hasSize((int) flushes);
    assertThat(r.duration()).isEqualTo(seen.get(seen.size() - 1).seconds());
    return seen;
  }

  /**
   * Without merges: the writer fills a component a second (8 writes/s), flush t runs from t to
   * t + 1, so the count is j on [j + 1, j + 2) and at flush n the integral is 1 + 2 + ... +
   * (n - 1).
   */
  @Test
  void withoutMergesTheCountClimbsOneAFlush() {
    List<FlushSample> s = ingest("no-merge", Map.of(), 8, 5);
    for (FlushSample f : s) {
      long n = f.flush();
      assertThat(f.seconds()).as("flush %d", n).isEqualTo(n + 1.0);
      assertThat(f.components()).isEqualTo((int) n);
      assertThat(f.componentSeconds()).isEqualTo(n * (n - 1) / 2.0);
      assertThat(f.bytesFlushed()).isEqualTo(1024.0 * n);
      assertThat(f.bytesMerged()).isZero();
    }
    assertThat(s.get(4).averageComponents()).isCloseTo(10.0 / 6, within(1e-12));
  }

  /**
   * constant with k = 2 at 4 writes/s: a component every 2 s, flush n done at 2n + 1. Flush 3
   * brings 3 runs and starts a merge of all three (3 KB), which gets the disk only between
   * flushes: [7, 8], [9, 10], [11, 12]. Until it ends its inputs count, so the count at flush n is
   * n (an instantaneous merge would leave 1 after flush 3), the integral at flush n is
   * 2·(1 + ... + (n - 1)) = n(n - 1), and at flush 5 the merge has written 2 KB.
   */
  @Test
  void aMergeThatTakesTimeKeepsItsInputsCounted() {
    List<FlushSample> s = ingest("constant", Map.of("num-components", "2"), 4, 5);
    for (FlushSample f : s) {
      long n = f.flush();
      assertThat(f.seconds()).as("flush %d", n).isEqualTo(2.0 * n + 1);
      assertThat(f.components()).as("flush %d", n).isEqualTo((int) n);
      assertThat(f.componentSeconds()).as("flush %d", n).isEqualTo(n * (n - 1.0));
    }
    FlushSample last = s.get(4);
    assertThat(last.averageComponents()).isCloseTo(20.0 / 11, within(1e-12));
    assertThat(last.bytesMerged()).isEqualTo(2048.0);
    assertThat(last.writeAmplification()).isCloseTo((5 * 1024 + 2048) / (5 * 1024.0),
        within(1e-12));
    assertThat(last.stalledSeconds()).isZero();
  }

  /** The same flushes with runs of new keys: a merge of three 1 KB runs writes 3 KB. */
  @Test
  void runsOfNewKeysMergeToTheSumOfTheirSizes() {
    List<FlushSample> s = ingest("constant", Map.of("num-components", "2"), 4, 7);
    // the 3 KB merge ends at 12 s; flush 6 (done at 13 s) follows 4, 5 and the merged run
    assertThat(s.get(5).components()).isEqualTo(4);
    assertThat(s.get(5).bytesMerged()).isEqualTo(3072.0);
  }

  /**
   * An ingest has no set length, so its per-second series grows as time passes: at one write a
   * second a component fills in 8 s and flush n completes at 8n + 1, so 128 flushes take 1,025 s
   * (more than the first 1,024 buckets), one write completing in each second.
   */
  @Test
  void aLongIngestKeepsItsPerSecondSeries() {
    DesPhaseResult r = DiscreteEventSimulator.of(setup(1), new NamedPlugin("no-merge", Map.of()),
        FAIR).ingest(128, null);
    assertThat(r.duration()).isEqualTo(1025.0);
    assertThat(r.series()).hasSize(1025);
    assertThat(r.series().get(1000).completed()).isEqualTo(1);
    assertThat(r.series().get(1023).completed()).isEqualTo(1);
    // the count at the end of second 1,000 (instant 1,001, when flush 125 completes): 124 before
    assertThat(r.series().get(1000).diskComponents()).isEqualTo(124);
    // flush 128 runs from 1,024 to 1,025 s, in the last bucket; none runs in second 1,023
    assertThat(r.series().get(1024).bytesFlushed()).isEqualTo(1024.0);
    assertThat(r.series().get(1023).bytesFlushed()).isZero();
    assertThat(r.maxDiskComponents()).isEqualTo(128);
  }

  @Test
  void refusesMoreFlushesThanTheKeysAllowAndNoFlushes() {
    DiscreteEventSimulator des = DiscreteEventSimulator.of(setup(8),
        new NamedPlugin("no-merge", Map.of()), FAIR);
    assertThatThrownBy(() -> des.ingest(129, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an ingest of 129 flushes of 8 entries writes 1,032 new keys, more than the"
            + " 1024 entries of the setup");
    assertThatThrownBy(() -> des.ingest(0, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an ingest needs at least 1 flush, got 0");
    assertThat(des.ingest(128, null).writesCompleted()).isGreaterThanOrEqualTo(1023);
  }
}
