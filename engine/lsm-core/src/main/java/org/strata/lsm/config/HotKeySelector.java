package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/**
 * Which keys of a sealed memory component are <em>hot</em> under TRIAD-MEM (Balmau et al., ATC
 * 2017, Algorithm 2 and section 4.1): the hot keys stay in memory, carried into the next memory
 * component, and only the others are flushed. Both selectors see each key's update counter
 * ({@code MemoryComponent.updates}); a key with counter 0 (carried in and not written since) is
 * never hot, so a key that has cooled down is flushed. Ties are broken by key order, so the choice
 * is deterministic.
 */
public enum HotKeySelector {
  /**
   * The paper's Algorithm 2: the {@code K} keys with the highest update counters, {@code K =
   * capacity in entries x hot-percent / 100}.
   */
  TOP_K,
  /**
   * Section 4.1: the keys updated more often than the average key written in the component (keys
   * carried in and not written since do not count), at most half of its keys (the public TRIAD
   * code's cap) and at most {@code k}, the most updated first. On a uniform workload no key is
   * above the mean, so nothing is hot.
   */
  ABOVE_MEAN;

  /** The configuration name: {@code top-k} or {@code above-mean}. */
  @JsonValue
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * Picks the hot keys.
   *
   * @param counts the update counter of each key, in key order
   * @param k how many keys at most ({@link #ABOVE_MEAN} also stops at half of the keys)
   * @return for each key, whether it is hot
   */
  public boolean[] select(int[] counts, long k) {
    int n = counts.length;
    if (n == 0) {
      return new boolean[0];
    }
    int minCount; // a hot key's counter is at least this (and above 0)
    long quota;
    if (this == TOP_K) {
      quota = Math.min(k, n);
      if (quota <= 0) {
        return new boolean[n];
      }
      int[] sorted = counts.clone();
      Arrays.sort(sorted);
      minCount = sorted[(int) (n - quota)];
    } else {
      // the mean of the keys written in this component: a key carried in and not written since
      // (counter 0) has no update frequency, and counting it would pull the mean below 1 and make
      // every key written once look hot (a uniform workload would then carry half of each
      // component, forever)
      long sum = 0;
      int written = 0;
      for (int c : counts) {
        sum += c;
        written += c > 0 ? 1 : 0;
      }
      if (written == 0) {
        return new boolean[n];
      }
      double mean = (double) sum / written;
      quota = Math.min(n / 2, k);
      minCount = (int) Math.floor(mean) + 1; // strictly above the mean
      if (quota <= 0) {
        return new boolean[n];
      }
      int[] sorted = counts.clone();
      Arrays.sort(sorted);
      minCount = Math.max(minCount, sorted[(int) (n - quota)]);
    }
    minCount = Math.max(minCount, 1);
    boolean[] hot = new boolean[n];
    long picked = 0;
    for (int i = 0; i < n; i++) { // counters above the cut first: they always fit the quota
      if (counts[i] > minCount) {
        hot[i] = true;
        picked++;
      }
    }
    for (int i = 0; i < n && picked < quota; i++) { // then ties at the cut, in key order
      if (counts[i] == minCount) {
        hot[i] = true;
        picked++;
      }
    }
    return hot;
  }
}
