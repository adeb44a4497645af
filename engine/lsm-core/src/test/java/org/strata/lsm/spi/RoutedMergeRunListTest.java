package org.strata.lsm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.spi.RunListTest.file;
import static org.strata.lsm.spi.RunListTest.key;
import static org.strata.lsm.spi.RunListTest.run;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Routed merges and moves on the run-list model: where outputs and moved files go. */
class RoutedMergeRunListTest {
  private static long ids = 100;

  /** Level 0: p (0..99); level 10: a (10..20), b (50..60); level 11: c (10..20), d (50..60). */
  private static RunList tree() {
    return RunList.of(List.of(run(1, 0, file("p", 0, 99)),
        run(2, 10, file("a", 10, 20), file("b", 50, 60)),
        run(3, 11, file("c", 10, 20), file("d", 50, 60))));
  }

  private static MergeRequest.Route route(int from, int level) {
    return new MergeRequest.Route(from < 0 ? new byte[0] : key(from), level, Long.MAX_VALUE,
        false);
  }

  @Test
  void eachOutputJoinsOrFormsTheRunOfItsRoutesLevel() {
    MergeRequest.Routed r = new MergeRequest.Routed(List.of("p", "b", "d"),
        List.of(route(-1, 9), route(40, 11)));
    RunList list = tree().markMerging(r);
    assertThat(list.isMerging("p")).isTrue();
    assertThat(list.isMerging("a")).isFalse();
    // route 0 (keys < 40) forms a new run of level 9; route 1 joins level 11 (b, d leave)
    RunList after = list.apply(r, List.of(file("x", 0, 30), file("y", 40, 99)), () -> ids++);
    assertThat(after.runs()).extracting(RunInfo::level).containsExactly(9, 10, 11);
    assertThat(after.runs().get(0).components()).extracting(ComponentInfo::name)
        .containsExactly("x");
    assertThat(after.runs().get(1).components()).extracting(ComponentInfo::name)
        .containsExactly("a");
    assertThat(after.runs().get(2).components()).extracting(ComponentInfo::name)
        .containsExactly("c", "y");
    assertThat(after.isMerging("a")).isFalse();
  }

  @Test
  void anOutputSpanningTwoRoutesOrOverlappingItsRunIsRefused() {
    MergeRequest.Routed r = new MergeRequest.Routed(List.of("p"),
        List.of(route(-1, 12), route(40, 12)));
    assertThatThrownBy(() -> tree().apply(r, List.of(file("x", 0, 50)), () -> ids++))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("spans routes");
    MergeRequest.Routed into11 = new MergeRequest.Routed(List.of("p"), List.of(route(-1, 11)));
    assertThatThrownBy(() -> tree().apply(into11, List.of(file("x", 15, 30)), () -> ids++))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("overlap");
  }

  @Test
  void routesMustStartAtTheEmptyKeyAndAscend() {
    assertThatThrownBy(() -> new MergeRequest.Routed(List.of("p"), List.of(route(5, 1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty key");
    assertThatThrownBy(() -> new MergeRequest.Routed(List.of("p"),
        List.of(route(-1, 1), route(9, 1), route(9, 2))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending");
    MergeRequest.Routed r = new MergeRequest.Routed(List.of("p"),
        List.of(route(-1, 1), route(10, 2), route(20, 3)));
    assertThat(r.routeOf(key(5))).isEqualTo(0);
    assertThat(r.routeOf(key(10))).isEqualTo(1);
    assertThat(r.routeOf(key(25))).isEqualTo(2);
    assertThat(r.outputLevel()).isEqualTo(3);
  }

  @Test
  void aMoveRelocatesFilesWithoutOutputsAndKeepsThemOutOfMergesWhileMerging() {
    MergeRequest.Move m = new MergeRequest.Move(List.of("p"), List.of(12));
    RunList after = tree().apply(m, List.of(), () -> ids++);
    assertThat(after.runs()).extracting(RunInfo::level).containsExactly(10, 11, 12);
    assertThat(after.runs().get(2).components()).extracting(ComponentInfo::name)
        .containsExactly("p");
    assertThatThrownBy(() -> tree().apply(m, List.of(file("z", 0, 1)), () -> ids++))
        .isInstanceOf(IllegalArgumentException.class);
    MergeRequest.Move overlapping = new MergeRequest.Move(List.of("p"), List.of(10));
    assertThatThrownBy(() -> tree().apply(overlapping, List.of(), () -> ids++))
        .isInstanceOf(IllegalStateException.class);
    RunList busy = tree().markMerging(new MergeRequest.Components(List.of("p"), 1, 10));
    assertThat(busy.check(m)).isPresent();
  }
}
