package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.component.KeySketchBuilder;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.KeySketch;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;

class TriadDiskPolicyTest {
  /** Level-0 files whose sketches hold the given key ranges. */
  static final class Sketched extends PolicyTestHost {
    final Map<String, KeySketch> sketches = new HashMap<>();

    Sketched() {
      super(Capability.PARTITIONED_RUNS, Capability.KEY_RANGES, Capability.KEY_SKETCHES);
    }

    Sketched file(String name, int from, int to) {
      KeySketchBuilder s = new KeySketchBuilder();
      for (int k = from; k < to; k++) {
        s.add(KeyHash.hash64(("key" + k).getBytes()));
      }
      sketches.put(name, s.build());
      oldest(0, PolicyTestHost.file(name, 0, 9999, to - from));
      return this;
    }

    @Override
    public OptionalDouble distinctKeys(List<ComponentInfo> components) {
      List<KeySketch> of = new ArrayList<>();
      for (ComponentInfo c : components) {
        if (!sketches.containsKey(c.name())) {
          return OptionalDouble.empty();
        }
        of.add(sketches.get(c.name()));
      }
      return OptionalDouble.of(KeySketch.merge(of).estimate());
    }
  }

  private static MergePolicy triad() {
    return Plugins.mergePolicy(new NamedPlugin("triad-disk", Map.of("level1-size", "1GB")));
  }

  @Test
  void sketchesEstimateDistinctKeysWithinAFewPercent() {
    KeySketchBuilder a = new KeySketchBuilder();
    KeySketchBuilder b = new KeySketchBuilder();
    for (int k = 0; k < 100_000; k++) {
      a.add(KeyHash.hash64(("key" + k).getBytes()));
      b.add(KeyHash.hash64(("key" + (k + 50_000)).getBytes()));
    }
    assertThat(a.build().estimate()).isCloseTo(100_000, within(3_000.0));
    assertThat(KeySketch.merge(List.of(a.build(), b.build())).estimate())
        .isCloseTo(150_000, within(4_500.0));
    KeySketchBuilder small = new KeySketchBuilder();
    for (int k = 0; k < 1000; k++) {
      small.add(KeyHash.hash64(("key" + k).getBytes()));
    }
    assertThat(small.build().estimate()).isCloseTo(1000, within(30.0));
  }

  @Test
  void defersDisjointLevelZeroFilesUntilTheFileCap() {
    Sketched l = new Sketched();
    for (int i = 4; i >= 1; i--) {
      l.file("f" + i, i * 10_000, i * 10_000 + 5_000);
    }
    assertThat(TriadDiskPolicy.overlapRatio(l, l.runs()).orElseThrow())
        .isCloseTo(0, within(0.05));
    MergePolicy p = triad();
    l.decide(p, false);
    assertThat(l.mergedFiles()).isEmpty(); // 4 files, overlap ~0: deferred
    Sketched seven = new Sketched();
    for (int i = 7; i >= 1; i--) {
      seven.file("f" + i, i * 10_000, i * 10_000 + 5_000);
    }
    seven.decide(p, false);
    assertThat(seven.mergedFiles()).hasSize(1); // 7 > max-l0-files: merged whatever the overlap
    assertThat(seven.mergedFiles().get(0)).hasSize(7);
  }

  @Test
  void mergesLevelZeroAtOnceWhenItsFilesOverlap() {
    Sketched l = new Sketched();
    for (int i = 4; i >= 1; i--) {
      l.file("f" + i, 0, 5_000); // the same keys in every file
    }
    assertThat(TriadDiskPolicy.overlapRatio(l, l.runs()).orElseThrow())
        .isCloseTo(0.75, within(0.03));
    l.decide(triad(), false);
    assertThat(l.mergedFiles()).hasSize(1);
  }
}
