package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.FlowControl;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;
import org.strata.lsm.testing.VirtualClock;

/** Write admission (asap, limit, graded) and the local component constraint. */
class FlowControlTest {
  @TempDir Path tmp;

  private static StoreConfig base(FlowControl fc, NamedPlugin policy) {
    return StoreConfig.defaults().withMergePolicy(policy)
        .withMemoryComponent(MemoryComponentConfig.of(256 * 1024, 2))
        .withDurability(Durability.NONE).withFlowControl(fc);
  }

  private static long writeMegabytes(LsmStore store, int mb, int offset) {
    byte[] value = new byte[1000];
    long bytes = 0;
    for (int i = 0; i < mb * 1000; i++) {
      byte[] key = String.format("key%09d", offset + i).getBytes();
      store.put(key, value);
      bytes += key.length + value.length;
    }
    return bytes;
  }

  @Test
  void limitPacesEveryWriteToTheRate() {
    VirtualClock clock = new VirtualClock();
    FlowControl fc = new FlowControl(
        FlowControl.Constraint.GLOBAL, FlowControl.Admission.LIMIT,
        ByteSize.ofBytes(1L << 20), 0.8);
    try (LsmStore store = LsmStore.open(tmp.resolve("limit"), base(fc,
        new NamedPlugin("no-merge", Map.of())), new StoreEnvironment(clock, FileIo.standard()))) {
      long t0 = clock.nanoTime();
      long bytes = writeMegabytes(store, 5, 0);
      double seconds = (clock.nanoTime() - t0) / 1e9;
      double expected = bytes / (double) (1L << 20);
      // The bucket starts with 64 KB of burst, a sixteenth of a second at this rate.
      assertThat(seconds).isBetween(expected - 0.1, expected + 0.01);
    }
  }

  @Test
  void asapDoesNotPaceAndGradedPacesOnlyNearTheConstraint() {
    VirtualClock clock = new VirtualClock();
    try (LsmStore store = LsmStore.open(tmp.resolve("asap"), base(FlowControl.defaults(),
        new NamedPlugin("no-merge", Map.of())), new StoreEnvironment(clock, FileIo.standard()))) {
      long t0 = clock.nanoTime();
      writeMegabytes(store, 2, 0);
      assertThat(clock.nanoTime()).isEqualTo(t0);
    }
    // size-tiered that never merges (min-merge above any count) with a constraint of 2
    // components: graded slows writes from 0.5 x 2 = 1 component on.
    NamedPlugin neverMerges = new NamedPlugin("size-tiered", Map.of("min-merge", "1000",
        "max-merge", "1000", "max-component-count", "2"));
    FlowControl graded = new FlowControl(
        FlowControl.Constraint.GLOBAL, FlowControl.Admission.GRADED,
        ByteSize.ofBytes(1L << 20), 0.5);
    VirtualClock clock2 = new VirtualClock();
    try (LsmStore store = LsmStore.open(tmp.resolve("graded"), base(graded, neverMerges),
        new StoreEnvironment(clock2, FileIo.standard()))) {
      long t0 = clock2.nanoTime();
      writeMegabytes(store, 0, 0);
      store.put("k".getBytes(), new byte[100]);
      assertThat(clock2.nanoTime()).as("no component yet: no slowdown").isEqualTo(t0);
      store.flush();
      assertThat(store.stats().diskComponents()).isEqualTo(1);
      long t1 = clock2.nanoTime();
      long bytes = writeMegabytes(store, 1, 10_000);
      assertThat((clock2.nanoTime() - t1) / 1e9).isGreaterThan(bytes / (double) (1L << 20) - 0.1);
    }
  }

  @Test
  void localConstraintLooksAtEachLevel() {
    MergePolicy tiering = Plugins.mergePolicy(new NamedPlugin("tiering",
        Map.of("size-ratio", "3")));
    // Level 1 holds five runs (more than 2(T-1) = 4) while a level-2 merge runs.
    PolicyTestHost ctx = levelOneRuns(5);
    assertThat(tiering.isMergeLaggingLocally(ctx)).isTrue();
    assertThat(tiering.isMergeLagging(ctx)).isFalse(); // 6 runs are within the global 2(T-1)L
    assertThat(tiering.isMergeLaggingLocally(levelOneRuns(4))).isFalse();
  }

  /** {@code n} runs at level 1 over one level-2 run that is merging. */
  private static PolicyTestHost levelOneRuns(int n) {
    PolicyTestHost h = new PolicyTestHost().newest(2, 1).markMerging(0);
    for (int i = 0; i < n; i++) {
      h.newest(1, 1);
    }
    return h;
  }

  @Test
  void configurationNamesBadValues() {
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"flow-control\": {\"admission\": \"whenever\"}}", "t"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("flow-control.admission").hasMessageContaining("asap, limit, graded");
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"flow-control\": {\"constraint\": \"everywhere\"}}", "t"))
        .hasMessageContaining("flow-control.constraint").hasMessageContaining("global, local");
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"flow-control\": {\"slowdown-at\": 1.5}}", "t"))
        .hasMessageContaining("flow-control.slowdown-at");
    StoreConfig c = StoreConfigJson.parse("{\"flow-control\": {\"constraint\": \"local\","
        + " \"admission\": \"limit\", \"write-rate\": \"8MB\"}}", "t");
    assertThat(c.flowControl()).isEqualTo(new FlowControl(
        FlowControl.Constraint.LOCAL, FlowControl.Admission.LIMIT,
        ByteSize.ofBytes(8L << 20), 0.8));
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(c), "again")).isEqualTo(c);
  }
}
