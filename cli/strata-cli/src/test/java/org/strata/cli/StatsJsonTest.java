package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;

/** {@code strata stats --json} names a sticky background error, and only when there is one. */
class StatsJsonTest {
  private static StoreStats stats(String backgroundError) {
    Map<StallCause, StoreStats.StallTotals> stalls = new EnumMap<>(StallCause.class);
    for (StallCause c : StallCause.values()) {
      stalls.put(c, new StoreStats.StallTotals(0, 0));
    }
    return new StoreStats(1, 1, 10, 0, 100, 100, 200, 0, 1, 0, 2.0, 1.0, stalls, List.of(), 0, 0,
        200, 0, false, backgroundError);
  }

  @Test
  void theByteCountersAreShown() {
    Map<StallCause, StoreStats.StallTotals> stalls = new EnumMap<>(StallCause.class);
    for (StallCause c : StallCause.values()) {
      stalls.put(c, new StoreStats.StallTotals(0, 0));
    }
    StoreStats s = new StoreStats(1, 1, 10, 0, 100, 100, 200, 300, 1, 1, 5.0, 2.5, stalls,
        List.of(), 0, 0, 200, 0, false, null, new ByteCounters(100, 180, 3, 30, 2, 150, 50,
            new java.util.TreeMap<>(Map.of(1, 300L))));
    ObjectNode b = (ObjectNode) StatsJson.of(s, List.of()).get("bytes");
    assertThat(b.get("logBytes").asLong()).isEqualTo(180);
    assertThat(b.get("reloggedEntries").asLong()).isEqualTo(3);
    assertThat(b.get("reloggedBytes").asLong()).isEqualTo(30);
    assertThat(b.get("flushesSkipped").asLong()).isEqualTo(2);
    assertThat(b.get("flushDataBytes").asLong()).isEqualTo(150);
    assertThat(b.get("flushIndexBytes").asLong()).isEqualTo(50);
    assertThat(b.get("mergeBytesByLevel").get("1").asLong()).isEqualTo(300);
  }

  @Test
  void aBackgroundErrorIsShown() {
    ObjectNode o = StatsJson.of(stats("java.io.IOException: No space left on device"), List.of());
    assertThat(o.get("backgroundError").asText()).contains("No space left on device");
  }

  @Test
  void withoutOneTheKeysAreTheUsualOnes() {
    ObjectNode o = StatsJson.of(stats(null), List.of());
    assertThat(o.has("backgroundError")).isFalse();
    assertThat(o.get("flushes").asLong()).isEqualTo(1);
    assertThat(o.get("writeAmplification").asDouble()).isEqualTo(2.0);
  }
}
