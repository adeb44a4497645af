package org.strata.lsm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.strata.lsm.spi.MergeRejection.Reason;

/** The run-list model on its own, without an engine. */
class RunListTest {
  /** A component with keys {@code "%04d"} of {@code min} and {@code max}. */
  static ComponentInfo file(String name, int min, int max) {
    return new ComponentInfo(name, 1, 1, 100, 10, 1, key(min), key(max));
  }

  static byte[] key(int k) {
    return String.format("%04d", k).getBytes(StandardCharsets.UTF_8);
  }

  static RunInfo run(long id, int level, ComponentInfo... files) {
    return new RunInfo(id, level, List.of(files), false);
  }

  /** Runs 5..1 newest first, one file each at level 0, keys 0..9 each. */
  static RunList stack() {
    List<RunInfo> runs = new ArrayList<>();
    for (long id = 5; id >= 1; id--) {
      runs.add(run(id, 0, file("s" + id, 0, 9)));
    }
    return RunList.of(runs);
  }

  /** Level 0: two files; level 1: three files; level 3: one file. */
  static RunList levels() {
    return RunList.of(List.of(
        run(10, 0, file("a", 5, 25)),
        run(11, 0, file("b", 40, 60)),
        run(12, 1, file("c", 0, 9), file("d", 10, 19), file("e", 50, 70)),
        run(13, 3, file("f", 0, 99))));
  }

  static List<Long> ids(RunList l) {
    return l.runs().stream().map(RunInfo::runId).toList();
  }

  static List<String> names(RunInfo r) {
    return r.components().stream().map(ComponentInfo::name).toList();
  }

  static MergeRequest.Runs runs(long... ids) {
    List<Long> l = new ArrayList<>();
    for (long id : ids) {
      l.add(id);
    }
    return new MergeRequest.Runs(l, 1, Long.MAX_VALUE);
  }

  static MergeRequest.Components files(int level, String... names) {
    return new MergeRequest.Components(List.of(names), level, 1000);
  }

  @Test
  void looksUpRunsAndComponents() {
    RunList l = levels();
    assertThat(l.run(12).orElseThrow().components()).hasSize(3);
    assertThat(l.run(99)).isEmpty();
    assertThat(l.runOf("d").orElseThrow().runId()).isEqualTo(12);
    assertThat(l.runOf("zz")).isEmpty();
    assertThat(l.component("e").orElseThrow().minKey()).isEqualTo(key(50));
    assertThat(l.component("zz")).isEmpty();
    assertThat(RunList.EMPTY.runs()).isEmpty();
  }

  @Test
  void refusesARunListWithARunIdOrComponentTwice() {
    assertThatThrownBy(() -> RunList.of(List.of(run(1, 0, file("x", 0, 1)),
        run(1, 0, file("y", 0, 1))))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run 1 appears twice");
    assertThatThrownBy(() -> RunList.of(List.of(run(1, 0, file("x", 0, 1)),
        run(2, 0, file("x", 0, 1))))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("component x appears twice");
    assertThatThrownBy(() -> stack().addNewest(run(3, 0, file("new", 0, 1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run 3");
  }

  @Test
  void requestsAreValidatedWhenMade() {
    assertThatThrownBy(() -> new MergeRequest.Runs(List.of(), 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a merge needs at least one run");
    assertThatThrownBy(() -> new MergeRequest.Runs(List.of(3L, 3L), 0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run 3 is named twice");
    assertThatThrownBy(() -> new MergeRequest.Runs(List.of(3L), 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("targetFileSize must be positive, got 0");
    assertThatThrownBy(() -> new MergeRequest.Components(List.of(), 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a merge needs at least one component");
    assertThatThrownBy(() -> new MergeRequest.Components(List.of("a", "a"), 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("component a is named twice");
    assertThatThrownBy(() -> new MergeRequest.Components(List.of("a"), 1, -5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5");
    RunList l = levels();
    assertThat(MergeRequest.ofRuns(l.runs().subList(1, 3), 2, 7))
        .isEqualTo(new MergeRequest.Runs(List.of(11L, 12L), 2, 7));
    assertThat(MergeRequest.ofComponents(l.run(12).orElseThrow().components(), 2, 7))
        .isEqualTo(new MergeRequest.Components(List.of("c", "d", "e"), 2, 7));
  }

  @Test
  void aContiguousWindowNewestFirstIsAccepted() {
    RunList l = stack();
    assertThat(l.check(runs(4, 3, 2))).isEmpty();
    assertThat(l.check(runs(5))).isEmpty();
    MergeWindow w = l.window(runs(4, 3, 2));
    assertThat(w.runs()).extracting(RunInfo::runId).containsExactly(4L, 3L, 2L);
    assertThat(w.includesOldest()).isFalse();
    assertThat(w.components()).extracting(ComponentInfo::name).containsExactly("s4", "s3", "s2");
    MergeWindow tail = l.window(runs(2, 1));
    assertThat(tail.includesOldest()).isTrue();
  }

  @Test
  void everyRejectionNamesItsReasonAndTheRuns() {
    RunList l = stack();
    assertThat(l.check(runs(4, 9)).orElseThrow()).satisfies(r -> {
      assertThat(r.reason()).isEqualTo(Reason.UNKNOWN_RUN);
      assertThat(r.message()).contains("run 9");
    });
    assertThat(l.check(runs(4, 2)).orElseThrow()).satisfies(r -> {
      assertThat(r.reason()).isEqualTo(Reason.NOT_CONTIGUOUS);
      assertThat(r.message()).contains("[4, 2]").contains("run 4 is followed by run 3");
    });
    assertThat(l.check(runs(2, 3)).orElseThrow().reason())
        .as("oldest first is not newest first").isEqualTo(Reason.NOT_CONTIGUOUS);
    assertThat(l.check(runs(1, 2)).orElseThrow().message()).contains("followed by no run");
    RunList merging = l.markMerging(runs(3, 2));
    assertThat(merging.check(runs(4, 3)).orElseThrow()).satisfies(r -> {
      assertThat(r.reason()).isEqualTo(Reason.ALREADY_MERGING);
      assertThat(r.message()).isEqualTo("run 3 is already merging");
    });
    RunList lv = levels();
    assertThat(lv.check(files(1, "a", "gone")).orElseThrow()).satisfies(r -> {
      assertThat(r.reason()).isEqualTo(Reason.UNKNOWN_COMPONENT);
      assertThat(r.message()).contains("component gone");
    });
    RunList partly = lv.markMerging(files(4, "f"));
    assertThat(partly.check(files(4, "c", "f")).orElseThrow()).satisfies(r -> {
      assertThat(r.reason()).isEqualTo(Reason.COMPONENT_MERGING);
      assertThat(r.message()).isEqualTo("component f is already merging");
    });
    assertThat(Reason.values()).hasSize(5);
  }

  @Test
  void markMergingShowsTheInputRunsMergingAndClearMergingUndoesIt() {
    RunList l = stack().markMerging(runs(3, 2));
    assertThat(l.runs()).extracting(RunInfo::merging)
        .containsExactly(false, false, true, true, false);
    assertThat(l.isMerging("s3")).isTrue();
    assertThat(l.isMerging("s5")).isFalse();
    assertThatThrownBy(() -> l.markMerging(runs(2))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("run 2 is already merging");
    assertThat(l.clearMerging(runs(3, 2)).runs()).extracting(RunInfo::merging)
        .containsOnly(false);
    // A partitioned merge marks only the files it reads; their runs show merging.
    RunList lv = levels().markMerging(files(2, "d"));
    assertThat(lv.isMerging("d")).isTrue();
    assertThat(lv.isMerging("c")).isFalse();
    assertThat(lv.run(12).orElseThrow().merging()).isTrue();
    assertThat(lv.check(files(2, "c"))).as("another file of the same run").isEmpty();
    assertThat(lv.check(runs(12)).orElseThrow().reason()).isEqualTo(Reason.ALREADY_MERGING);
    // A run given merging counts every one of its files as merging.
    RunList given = RunList.of(List.of(new RunInfo(1, 0, List.of(file("x", 0, 1)), true)));
    assertThat(given.isMerging("x")).isTrue();
  }

  @Test
  void aWholeRunMergePutsItsOutputWhereTheWindowWas() {
    RunList l = stack().markMerging(runs(4, 3, 2));
    RunList after = l.apply(runs(4, 3, 2), List.of(file("out", 0, 9)), 6);
    assertThat(ids(after)).containsExactly(5L, 6L, 1L);
    RunInfo out = after.run(6).orElseThrow();
    assertThat(out.level()).isEqualTo(1);
    assertThat(names(out)).containsExactly("out");
    assertThat(after.runs()).extracting(RunInfo::merging).containsOnly(false);
    assertThat(after.isMerging("s3")).isFalse();
    assertThat(ids(l)).as("the list is immutable").containsExactly(5L, 4L, 3L, 2L, 1L);
  }

  @Test
  void aWholeRunMergeWhoseEntriesWereAllDroppedLeavesNoRun() {
    RunList after = stack().markMerging(runs(2, 1)).apply(runs(2, 1), List.of(), 6);
    assertThat(ids(after)).containsExactly(5L, 4L, 3L);
    assertThat(after.run(6)).isEmpty();
  }

  @Test
  void aOneRunMergeOfItsOwnComponentsIsALevelMove() {
    RunList l = stack();
    RunInfo r3 = l.run(3).orElseThrow();
    RunList after = l.apply(new MergeRequest.Runs(List.of(3L), 4, Long.MAX_VALUE),
        r3.components(), 99);
    assertThat(ids(after)).containsExactly(5L, 4L, 3L, 2L, 1L);
    assertThat(after.run(3).orElseThrow().level()).isEqualTo(4);
    assertThat(after.run(3).orElseThrow().components()).isEqualTo(r3.components());
    assertThat(after.run(99)).isEmpty();
  }

  @Test
  void applyRefusesAGoneWindowARunThatChangedWhileMergingAndClashingOutputs() {
    RunList l = stack().markMerging(runs(3, 2));
    RunList merged = l.apply(runs(3, 2), List.of(file("m", 0, 9)), 7);
    assertThatThrownBy(() -> merged.apply(runs(3, 2), List.of(), 8))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("run 3");
    // Level 1 is merging as a whole run when a partitioned merge's output joins it.
    RunList lv = levels().markMerging(runs(12, 13));
    RunList joined = lv.apply(files(1, "b"), List.of(file("b2", 40, 45)), 20);
    assertThatThrownBy(() -> joined.apply(runs(12, 13), List.of(file("x", 0, 99)), 21))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("run 12 gained components while it was merging");
    assertThatThrownBy(() -> stack().apply(runs(2, 1), List.of(file("s5", 0, 9)), 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("component s5 is already in the run list");
    assertThatThrownBy(() -> stack().apply(runs(2, 1), List.of(file("o", 0, 9)), 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run 5");
  }

  @Test
  void aPartitionedMergeTakesItsFilesOutAndEmptiedRunsGo() {
    RunList l = levels().markMerging(files(1, "a", "c", "d"));
    RunList after = l.apply(files(1, "a", "c", "d"), List.of(file("cd", 0, 19)), 20);
    assertThat(ids(after)).containsExactly(11L, 12L, 13L); // run 10 held only a
    assertThat(names(after.run(12).orElseThrow())).containsExactly("cd", "e");
    assertThat(after.runs()).extracting(RunInfo::merging).containsOnly(false);
  }

  @Test
  void outputsJoinTheRunOfTheirLevelInKeyOrder() {
    RunList after = levels().apply(files(1, "a", "d"),
        List.of(file("x1", 10, 14), file("x2", 20, 30)), 20);
    assertThat(names(after.run(12).orElseThrow())).containsExactly("c", "x1", "x2", "e");
    assertThat(after.run(12).orElseThrow().level()).isEqualTo(1);
    assertThat(after.run(20)).as("no run is formed").isEmpty();
  }

  @Test
  void outputsThatWouldOverlapTheirLevelAreRefused() {
    RunList l = levels();
    assertThatThrownBy(() -> l.apply(files(1, "a"), List.of(file("x", 5, 25)), 20))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("overlap files of level 1").hasMessageContaining("c and x")
        .hasMessageContaining("must include every overlapping file");
    assertThat(ids(l)).containsExactly(10L, 11L, 12L, 13L);
  }

  @Test
  void aNewLevelIsPlacedAfterEveryRunOfALowerLevel() {
    RunList two = levels().apply(files(2, "d"), List.of(file("n", 10, 19)), 20);
    assertThat(ids(two)).containsExactly(10L, 11L, 12L, 20L, 13L);
    assertThat(two.run(20).orElseThrow().level()).isEqualTo(2);
    RunList deepest = levels().apply(files(5, "f"), List.of(file("g", 0, 99)), 21);
    assertThat(ids(deepest)).containsExactly(10L, 11L, 12L, 21L); // run 13 emptied, 21 last
    // Level 0 never joins a run: a level-0 output forms a run of its own after level 0.
    RunList zero = levels().apply(files(0, "b"), List.of(file("b2", 40, 60)), 22);
    assertThat(ids(zero)).containsExactly(10L, 22L, 12L, 13L);
  }

  @Test
  void includesOldestForAPartitionedMergeMeansNoRunIsOlderThanItsInputs() {
    RunList l = levels();
    MergeWindow w = l.window(files(1, "a", "d"));
    assertThat(w.runs()).extracting(RunInfo::runId).containsExactly(10L, 12L);
    assertThat(w.runs().get(1).components()).extracting(ComponentInfo::name)
        .containsExactly("d");
    assertThat(w.includesOldest()).isFalse(); // run 13 is older
    assertThat(l.window(files(4, "e", "f")).includesOldest()).isTrue();
    assertThat(l.window(runs(12, 13)).includesOldest()).isTrue();
    assertThat(l.window(runs(11, 12)).includesOldest()).isFalse();
    assertThatThrownBy(() -> l.window(runs(10, 12))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not contiguous");
  }

  @Test
  void addNewestIsAFlush() {
    RunList l = stack().addNewest(run(6, 0, file("s6", 0, 9)));
    assertThat(ids(l)).containsExactly(6L, 5L, 4L, 3L, 2L, 1L);
    assertThat(l.check(runs(6, 5))).isEmpty();
  }

  @Test
  void toStringShowsIdsLevelsAndMerging() {
    assertThat(levels().markMerging(runs(11)).toString())
        .isEqualTo("RunList[10@L0, 11@L0*, 12@L1(3 files), 13@L3]");
  }

  /** The checks and whole-run merges against a plain list of run ids, on random operations. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void wholeRunMergesMatchAListModel(long seed) {
    System.out.println("RunListTest seed " + seed);
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    RunList l = RunList.EMPTY;
    List<Long> model = new ArrayList<>(); // run ids, newest first
    Set<Long> merging = new HashSet<>();
    List<MergeRequest.Runs> pending = new ArrayList<>();
    long next = 1;
    for (int step = 0; step < 400; step++) {
      int op = random.nextInt(10);
      if (op < 4 || model.isEmpty()) {
        long id = next++;
        l = l.addNewest(run(id, 0, file("f" + id, 0, 9)));
        model.add(0, id);
      } else if (op < 8) {
        int start = random.nextInt(model.size());
        int n = 1 + random.nextInt(Math.min(4, model.size() - start));
        List<Long> window = new ArrayList<>(model.subList(start, start + n));
        if (random.nextInt(4) == 0 && n > 1) {
          window.set(n - 1, window.get(n - 1) + 1000); // sometimes a run that does not exist
        } else if (random.nextInt(4) == 0) {
          java.util.Collections.reverse(window); // sometimes oldest first
        } else if (random.nextInt(4) == 0 && start + n < model.size()) {
          window.set(n - 1, model.get(start + n)); // sometimes a gap
        }
        MergeRequest.Runs request = new MergeRequest.Runs(window, 1, Long.MAX_VALUE);
        boolean expected = merging.stream().noneMatch(window::contains);
        for (int i = 0; i < window.size(); i++) {
          expected &= model.indexOf(window.get(i)) == model.indexOf(window.get(0)) + i
              && model.contains(window.get(i));
        }
        assertThat(l.check(request).isEmpty()).as("seed %d step %d: %s on %s", seed, step,
            window, l).isEqualTo(expected);
        if (expected) {
          l = l.markMerging(request);
          merging.addAll(window);
          pending.add(request);
        }
      } else if (!pending.isEmpty()) {
        MergeRequest.Runs done = pending.remove(random.nextInt(pending.size()));
        boolean abandon = random.nextInt(5) == 0;
        if (abandon) {
          l = l.clearMerging(done);
        } else {
          long id = next++;
          boolean dropAll = random.nextInt(6) == 0;
          l = l.apply(done, dropAll ? List.of() : List.of(file("f" + id, 0, 9)), id);
          int at = model.indexOf(done.runIds().get(0));
          model.subList(at, at + done.runIds().size()).clear();
          if (!dropAll) {
            model.add(at, id);
          }
        }
        merging.removeAll(done.runIds());
      }
      assertThat(ids(l)).as("seed %d step %d", seed, step).isEqualTo(model);
      for (RunInfo r : l.runs()) {
        assertThat(r.merging()).as("seed %d step %d run %d", seed, step, r.runId())
            .isEqualTo(merging.contains(r.runId()));
      }
    }
  }
}
