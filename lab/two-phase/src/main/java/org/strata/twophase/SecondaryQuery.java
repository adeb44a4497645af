package org.strata.twophase;

import java.util.List;
import java.util.SplittableRandom;

/**
 * A secondary-index query of a chosen selectivity (Luo & Carey 7.2): the secondary fields are
 * uniform over the {@code keys} loaded keys, one record per value on average, so a range of
 * {@code selectivity} consecutive values holds {@code selectivity} records on average.
 */
public final class SecondaryQuery {
  private SecondaryQuery() {}

  /**
   * A random range of {@code selectivity} consecutive secondary values within {@code [0, keys)}:
   * {from, to}, both inclusive, as the fields' text.
   */
  public static String[] range(long keys, int selectivity, SplittableRandom random) {
    if (selectivity < 1 || selectivity > keys) {
      throw new IllegalArgumentException("selectivity must be 1 to the " + keys + " keys, got "
          + selectivity);
    }
    long lo = random.nextLong(keys - selectivity + 1);
    return new String[] {RecordShape.secondaryValue(lo),
        RecordShape.secondaryValue(lo + selectivity - 1)};
  }

  /** Runs one query of {@code selectivity} on {@code index}; returns the keys it found. */
  public static List<String> run(QueryTarget target, String index, long keys, int selectivity,
      SplittableRandom random) throws Exception {
    String[] r = range(keys, selectivity, random);
    return target.secondaryRange(index, r[0], r[1]);
  }
}
