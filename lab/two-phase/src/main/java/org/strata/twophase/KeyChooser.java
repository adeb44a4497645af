package org.strata.twophase;

import java.util.SplittableRandom;
import site.ycsb.generator.ZipfianGenerator;

/**
 * Which existing record an update writes: uniform over the loaded ids, or Zipf-distributed with
 * YCSB's generator and the popular ids scattered over the key space by a hash (as YCSB's
 * scrambled Zipfian does), so hot keys are not adjacent. Thread-safe.
 */
final class KeyChooser {
  private final long keys;
  private final ZipfianGenerator zipf;

  KeyChooser(TwoPhaseConfig.Records records, long keys) {
    this.keys = keys;
    this.zipf = records.distribution().equals("zipf")
        ? new ZipfianGenerator(0, keys - 1, records.zipfConstant()) : null;
  }

  /** The next id to update. */
  long next(SplittableRandom random) {
    if (zipf == null) {
      return random.nextLong(keys);
    }
    long rank = zipf.nextValue();
    return Math.floorMod(mix(rank + 0x9E3779B97F4A7C15L), keys);
  }

  private static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return x;
  }
}
