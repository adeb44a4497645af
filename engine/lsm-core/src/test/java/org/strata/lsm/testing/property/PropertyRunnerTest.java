package org.strata.lsm.testing.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The property runner: replayable seeds, shrinking to a minimal operation sequence, reporting. */
class PropertyRunnerTest {
  private static final Generator<List<Integer>> LISTS =
      r -> Lists.of(r, 0, 60, x -> x.nextInt(100));

  @Test
  void aHoldingPropertyRunsEveryTry() {
    List<List<Integer>> seen = new ArrayList<>();
    PropertyRunner.forAll(LISTS).tries(25).seed(1).check("holds", seen::add);
    assertThat(seen).hasSize(25);
  }

  @Test
  void theSameSeedGeneratesTheSameCases() {
    List<List<Integer>> a = new ArrayList<>();
    List<List<Integer>> b = new ArrayList<>();
    List<List<Integer>> c = new ArrayList<>();
    PropertyRunner.forAll(LISTS).tries(10).seed(42).check("a", a::add);
    PropertyRunner.forAll(LISTS).tries(10).seed(42).check("b", b::add);
    PropertyRunner.forAll(LISTS).tries(10).seed(43).check("c", c::add);
    assertThat(a).isEqualTo(b).isNotEqualTo(c);
  }

  @Test
  void aFailureIsShrunkToTheMinimalSequenceAndNamesItsSeed() {
    // Fails whenever the list holds both a 7 and, later, a 9: the minimum is [7, 9].
    Property<List<Integer>> noSevenThenNine = list -> {
      int seven = list.indexOf(7);
      assertThat(seven >= 0 && list.subList(seven, list.size()).contains(9)).isFalse();
    };
    Generator<List<Integer>> gen = r -> Lists.of(r, 30, 80, x -> x.nextInt(12));
    assertThatThrownBy(() -> PropertyRunner.forAll(gen).tries(200).seed(5)
        .shrinkWith(Lists.shrinking(l -> l, (l, shorter) -> shorter, 0))
        .shrinkBudget(5000)
        .check("seven then nine", noSevenThenNine))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("property 'seven then nine' failed")
        .hasMessageContaining("with seed 5 (replay: -Dstrata.seed=5)")
        .hasMessageContaining("to:\n  [7, 9]\n");
  }

  @Test
  void shorterProposesChunkRemovalsLargestFirstAndRespectsTheMinimum() {
    List<List<Integer>> c = Lists.shorter(List.of(1, 2, 3, 4), 0);
    assertThat(c).startsWith(List.of(3, 4), List.of(1, 2));
    assertThat(c).contains(List.of(2, 3, 4), List.of(1, 2, 3));
    assertThat(Lists.shorter(List.of(1, 2, 3, 4), 3)).allMatch(l -> l.size() == 3).hasSize(4);
  }

  @Test
  void weightedChoosesByWeight() {
    Weighted<String> w = new Weighted<String>().or(9, r -> "a").or(1, r -> "b");
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    int b = 0;
    for (int i = 0; i < 10_000; i++) {
      if (w.generate(r).equals("b")) {
        b++;
      }
    }
    assertThat(b).isBetween(800, 1200);
  }
}
