package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;

class PartitionedLevelingPolicyTest {
  /** A fixed run list with key ranges that records the partitioned merges asked for. */
  static class Levels implements MergeContext {
    final List<RunInfo> runs = new ArrayList<>();
    final List<List<String>> merges = new ArrayList<>();
    final List<Integer> levels = new ArrayList<>();
    long nextId = 1;

    static ComponentInfo file(String name, int min, int max, long size) {
      return new ComponentInfo(name, 1, 1, size, size, 1, key(min), key(max));
    }

    static byte[] key(int k) {
      return String.format("%04d", k).getBytes();
    }

    Levels run(int level, ComponentInfo... files) {
      runs.add(new RunInfo(nextId++, level, List.of(files), false));
      return this;
    }

    @Override
    public List<RunInfo> runs() {
      return List.copyOf(runs);
    }

    @Override
    public boolean scheduleMerge(List<RunInfo> r, int level, long target) {
      throw new AssertionError("partitioned leveling merges files, not whole runs");
    }

    @Override
    public boolean scheduleComponentMerge(List<ComponentInfo> inputs, int level, long target) {
      List<String> names = new ArrayList<>();
      inputs.forEach(c -> names.add(c.name()));
      merges.add(names);
      levels.add(level);
      return true;
    }
  }

  private static MergePolicy policy(String... kv) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin("partitioned-leveling", m));
  }

  @Test
  void levelZeroMergesWithTheOverlappingLevelOneFiles() {
    Levels l = new Levels()
        .run(0, Levels.file("f4", 10, 20, 10)).run(0, Levels.file("f3", 15, 30, 10))
        .run(0, Levels.file("f2", 12, 25, 10)).run(0, Levels.file("f1", 11, 29, 10))
        .run(1, Levels.file("a", 0, 9, 10), Levels.file("b", 10, 19, 10),
            Levels.file("c", 25, 40, 10), Levels.file("d", 50, 60, 10));
    policy("level1-size", "1000").diskComponentAdded(l, false);
    assertThat(l.merges).containsExactly(List.of("f4", "f3", "f2", "f1", "b", "c"));
    assertThat(l.levels).containsExactly(1);
  }

  @Test
  void exactlyTheTriggerMergesOnlyTheOldestRuns() {
    Levels l = new Levels();
    for (int i = 6; i >= 1; i--) {
      l.run(0, Levels.file("f" + i, i, i + 1, 10));
    }
    policy("merge-exactly-l0-trigger", "true", "level1-size", "1000")
        .diskComponentAdded(l, false);
    assertThat(l.merges).containsExactly(List.of("f4", "f3", "f2", "f1"));
  }

  @Test
  void roundRobinWalksTheFilesOfALevelAndChooseBestTakesTheLeastOverlap() {
    Levels l = new Levels()
        .run(1, Levels.file("a", 0, 9, 50), Levels.file("b", 10, 19, 50),
            Levels.file("c", 20, 29, 50))
        .run(2, Levels.file("x", 0, 4, 10), Levels.file("y", 5, 12, 10),
            Levels.file("z", 30, 40, 10));
    MergePolicy rr = policy("level1-size", "100", "size-ratio", "10");
    rr.diskComponentAdded(l, false);
    rr.diskComponentAdded(l, false);
    rr.diskComponentAdded(l, false);
    rr.diskComponentAdded(l, false);
    assertThat(l.merges).containsExactly(List.of("a", "x", "y"), List.of("b", "y"), List.of("c"),
        List.of("a", "x", "y"));
    assertThat(l.levels).containsOnly(2);
    Levels best = new Levels().run(1, l.runs.get(0).components().toArray(new ComponentInfo[0]))
        .run(2, l.runs.get(1).components().toArray(new ComponentInfo[0]));
    policy("level1-size", "100", "selection", "choose-best").diskComponentAdded(best, false);
    assertThat(best.merges).containsExactly(List.of("c"));
  }

  @Test
  void stopsWritesAtTheLevelZeroStopCountWhileMerging() {
    Levels l = new Levels();
    for (int i = 0; i < 12; i++) {
      l.run(0, Levels.file("f" + i, i, i, 1));
    }
    MergePolicy p = policy();
    assertThat(p.isMergeLagging(l)).isFalse(); // nothing is merging: writes must not wait forever
    l.runs.set(11, new RunInfo(l.runs.get(11).runId(), 0, l.runs.get(11).components(), true));
    assertThat(p.isMergeLagging(l)).isTrue();
  }
}
