package org.strata.lsm.spi;

/**
 * The shape of a policy with levels in Dostoevsky's terms
 * (docs/papers/dostoevsky.md#fluid-lsm-tree): level i+1 is {@code sizeRatio} times level i, levels
 * below the largest hold at most {@code runsPerLevel} runs (K) and the largest at most {@code
 * runsAtLargestLevel} (Z). Leveling is K = Z = 1, tiering K = Z = T−1, lazy leveling K = T−1 and Z
 * = 1. The engine sizes Bloom filters from it when {@code bloom-filter.allocation} is {@code
 * monkey} (Eq. 9); flushed runs (stored level 0) count as level 1, as the level policies place
 * them.
 *
 * @param sizeRatio T, at least 2
 * @param runsPerLevel K, 1 to T−1
 * @param runsAtLargestLevel Z, 1 to T−1
 */
public record LevelShape(int sizeRatio, int runsPerLevel, int runsAtLargestLevel) {

  public LevelShape {
    if (sizeRatio < 2 || runsPerLevel < 1 || runsPerLevel > sizeRatio - 1
        || runsAtLargestLevel < 1 || runsAtLargestLevel > sizeRatio - 1) {
      throw new IllegalArgumentException("a level shape needs T >= 2 and 1 <= K, Z <= T-1, got T = "
          + sizeRatio + ", K = " + runsPerLevel + ", Z = " + runsAtLargestLevel);
    }
  }
}
