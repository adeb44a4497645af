package org.strata.lsm.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hot-key selectors of TRIAD-MEM (docs/papers/triad.md#hot-keys). */
class HotKeySelectorTest {
  @Test
  void topKPicksTheKMostUpdatedKeys() {
    int[] counts = {1, 9, 2, 7, 1, 3};
    assertThat(HotKeySelector.TOP_K.select(counts, 2))
        .containsExactly(false, true, false, true, false, false);
    assertThat(HotKeySelector.TOP_K.select(counts, 3))
        .containsExactly(false, true, false, true, false, true);
  }

  @Test
  void topKBreaksTiesByKeyOrder() {
    int[] counts = {2, 5, 2, 2};
    assertThat(HotKeySelector.TOP_K.select(counts, 2))
        .containsExactly(true, true, false, false);
  }

  @Test
  void aKeyNotUpdatedSinceItWasCarriedIsNeverHot() {
    int[] counts = {0, 0, 4};
    assertThat(HotKeySelector.TOP_K.select(counts, 3)).containsExactly(false, false, true);
    assertThat(HotKeySelector.ABOVE_MEAN.select(new int[] {0, 0, 0, 0}, Long.MAX_VALUE))
        .containsExactly(false, false, false, false);
  }

  @Test
  void kOfZeroOrMoreThanTheKeys() {
    assertThat(HotKeySelector.TOP_K.select(new int[] {3, 1}, 0)).containsExactly(false, false);
    assertThat(HotKeySelector.TOP_K.select(new int[] {3, 1}, 10)).containsExactly(true, true);
    assertThat(HotKeySelector.TOP_K.select(new int[0], 10)).isEmpty();
  }

  @Test
  void aboveMeanPicksKeysUpdatedMoreOftenThanTheAverageOne() {
    // mean 3: only 9 and 4 are above it
    int[] counts = {1, 9, 1, 4, 1, 2};
    assertThat(HotKeySelector.ABOVE_MEAN.select(counts, Long.MAX_VALUE))
        .containsExactly(false, true, false, true, false, false);
    // a uniform component has no hot key
    assertThat(HotKeySelector.ABOVE_MEAN.select(new int[] {2, 2, 2}, Long.MAX_VALUE))
        .containsExactly(false, false, false);
  }

  @Test
  void aboveMeanTakesAtMostHalfTheKeys() {
    // mean 2.6 over the keys written: 3, 4, 3, 5 and 3 are above it, but at most half of eight
    // keys are hot, the most updated first, then ties in key order
    int[] counts = {3, 1, 4, 1, 3, 1, 5, 3};
    assertThat(HotKeySelector.ABOVE_MEAN.select(counts, Long.MAX_VALUE))
        .containsExactly(true, false, true, false, true, false, true, false);
    int[] counts2 = {2, 1, 3, 1, 2, 1, 4, 2, 1, 1};
    // mean 1.8: 2,3,2,4,2 are above; the cap is 5
    assertThat(HotKeySelector.ABOVE_MEAN.select(counts2, Long.MAX_VALUE))
        .containsExactly(true, false, true, false, true, false, true, true, false, false);
    int[] counts3 = {2, 1, 3, 1, 2, 1, 4, 2};
    // mean 2: 3 and 4 only
    assertThat(HotKeySelector.ABOVE_MEAN.select(counts3, Long.MAX_VALUE))
        .containsExactly(false, false, true, false, false, false, true, false);
  }

  @Test
  void aboveMeanStopsAtK() {
    // mean 1.8: 2, 3, 2, 4, 2 are above it; with K = 2 the two most updated
    int[] counts = {2, 1, 3, 1, 2, 1, 4, 2, 1, 1};
    assertThat(HotKeySelector.ABOVE_MEAN.select(counts, 2))
        .containsExactly(false, false, true, false, false, false, true, false, false, false);
  }

  /**
   * Keys carried in and not written since (counter 0) do not pull the mean down: with them
   * counted, the mean would be 0.75 and the three keys written once would be hot.
   */
  @Test
  void aboveMeanIgnoresKeysNotWrittenInTheComponent() {
    int[] counts = {0, 0, 0, 0, 1, 1, 1, 3};
    assertThat(HotKeySelector.ABOVE_MEAN.select(counts, Long.MAX_VALUE))
        .containsExactly(false, false, false, false, false, false, false, true);
    assertThat(HotKeySelector.ABOVE_MEAN.select(new int[] {0, 1, 0, 1}, Long.MAX_VALUE))
        .containsExactly(false, false, false, false);
  }
}
