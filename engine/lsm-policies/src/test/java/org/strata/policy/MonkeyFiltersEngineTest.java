package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.component.BloomFilter;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.component.MonkeyAllocation;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.BloomFilterConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.LevelShape;
import org.strata.lsm.spi.RunInfo;

/**
 * {@code bloom-filter.allocation = monkey} on the engine: a leveled store (T = 4) is loaded until
 * it has four levels, then overwritten so that every level is rewritten with the tree's depth
 * fixed; the filters of the components written in that second phase are probed with keys never
 * written, level by level, each while it is in the tree (the overwrites pause for a flush and the
 * merges every {@value #SETTLE_EVERY} writes, and every component new since the last pause is
 * probed then, so the levels a merge empties later are measured too). The measured
 * false-positive rate of each level must equal, within sampling error, the rate a filter built for
 * Eq. 9's p_i at that level has, and those rates differ from the uniform 1% by far more than the
 * sampling error (so uniform filters fail the test).
 */
class MonkeyFiltersEngineTest {
  private static final int T = 4;
  private static final double P = 0.01;
  private static final int PROBES_PER_COMPONENT = 100_000;
  /** Overwrites between pauses in which the new components are probed. */
  private static final int SETTLE_EVERY = 1_000;

  @TempDir Path dir;

  private static StoreConfig config(NamedPlugin policy, BloomFilterConfig.Allocation allocation) {
    return StoreConfig.defaults()
        .withMergePolicy(policy)
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(64 << 10, 2))
        .withBloomFilter(new BloomFilterConfig(P, allocation))
        .withDurability(Durability.NONE);
  }

  private static byte[] key(long k) {
    return String.format("k%011d", k).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void measuredFalsePositiveRatesFollowEquationNineLevelByLevel() throws Exception {
    Random rnd = new Random(5);
    byte[] value = new byte[100];
    int keys = 60_000;
    int deepest;
    double[] rates;
    long watermark = 0;
    // level (1..L) -> {probes, false positives, expected false positives, variance}
    TreeMap<Integer, double[]> byLevel = new TreeMap<>();
    Set<String> probed = new HashSet<>();
    Random probe = new Random(6);
    List<RunInfo> runs;
    try (LsmStore s = LsmStore.open(dir, config(new NamedPlugin("leveling",
        Map.of("size-ratio", Integer.toString(T))), BloomFilterConfig.Allocation.MONKEY))) {
      for (int i = 0; i < keys; i++) {
        rnd.nextBytes(value);
        s.put(key(2L * i), value);
      }
      s.flush();
      s.awaitMerges();
      deepest = deepest(s.runs());
      assertThat(deepest).as("the load must build four levels").isEqualTo(4);
      for (RunInfo r : s.runs()) {
        for (ComponentInfo c : r.components()) {
          watermark = Math.max(watermark, number(c));
        }
      }
      rates = MonkeyAllocation.falsePositiveRates(new LevelShape(T, 1, 1), deepest,
          MonkeyAllocation.bitsPerEntry(P));
      for (int i = 0; i < keys / 2; i++) {
        rnd.nextBytes(value);
        s.put(key(2L * rnd.nextInt(keys)), value);
        if ((i + 1) % SETTLE_EVERY == 0) {
          s.flush();
          s.awaitMerges();
          measure(s.runs(), watermark, rates, probed, probe, byLevel);
        }
      }
      s.flush();
      s.awaitMerges();
      runs = s.runs();
      measure(runs, watermark, rates, probed, probe, byLevel);
    }
    assertThat(deepest(runs)).as("the overwrites must not add a level").isEqualTo(deepest);
    // every level is rewritten at some pause
    assertThat(byLevel.keySet()).as("levels rewritten after the watermark").hasSizeGreaterThan(2);
    for (Map.Entry<Integer, double[]> e : byLevel.entrySet()) {
      double[] a = e.getValue();
      double sigma = Math.sqrt(a[3]);
      assertThat(Math.abs(a[1] - a[2])).as("level %d: %s false positives in %s probes, %s"
          + " expected (Eq. 9 rate %s)", e.getKey(), a[1], a[0], a[2], rates[e.getKey() - 1])
          .isLessThanOrEqualTo(4 * sigma + 1);
      // uniform 1% filters would be told apart: more than 8 sigma away at every level checked
      double uniform = a[0] * builtRate(P, 1000);
      assertThat(Math.abs(uniform - a[2])).as("level %d: Eq. 9 differs from uniform", e.getKey())
          .isGreaterThan(8 * Math.sqrt(uniform));
    }
  }

  /**
   * Probes the filter of every component in {@code runs} written after {@code watermark} and not
   * probed yet (written before it, a component may date from when the tree had fewer levels), and
   * adds the counts to its level's.
   */
  private void measure(List<RunInfo> runs, long watermark, double[] rates, Set<String> probed,
      Random probe, TreeMap<Integer, double[]> byLevel) {
    for (RunInfo r : runs) {
      int level = Math.max(1, r.level());
      if (level > rates.length) {
        continue; // a level the overwrites added: the test fails on it at the end
      }
      for (ComponentInfo c : r.components()) {
        if (number(c) <= watermark || !probed.add(c.name())) {
          continue;
        }
        DiskComponent d = DiskComponent.open(dir.resolve(c.name()), number(c), new PageCache(0));
        try {
          BloomFilter f = d.bloomFilter();
          double expected = builtRate(rates[level - 1], c.entryCount());
          int hits = 0;
          for (int i = 0; i < PROBES_PER_COMPONENT; i++) {
            long absent = 2L * probe.nextInt(1 << 28) + 1;
            if (f.mightContain(KeyHash.hash64(key(absent)))) {
              hits++;
            }
          }
          double[] acc = byLevel.computeIfAbsent(level, l -> new double[4]);
          acc[0] += PROBES_PER_COMPONENT;
          acc[1] += hits;
          acc[2] += PROBES_PER_COMPONENT * expected;
          acc[3] += PROBES_PER_COMPONENT * expected * (1 - expected);
        } finally {
          d.release();
        }
      }
    }
  }

  @Test
  void aPolicyWithoutLevelsIsRefusedWithTheReason() {
    assertThatThrownBy(() -> LsmStore.open(dir, config(new NamedPlugin("constant",
        Map.of("num-components", "4")), BloomFilterConfig.Allocation.MONKEY)).close())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("bloom-filter.allocation")
        .hasMessageContaining("constant")
        .hasMessageContaining("has no levels");
  }

  /**
   * The false-positive rate of a filter that {@link BloomFilter#build} makes for {@code n} keys at
   * target {@code p}: its bits and hash count are rounded, so (1 − e^(−kn/m))^k, not p (its probes
   * are independent positions, so the formula for independent hashes holds at every size).
   */
  private static double builtRate(double p, long n) {
    if (p >= 1) {
      return 1;
    }
    double ln2 = Math.log(2);
    long bits = Math.max(64, (long) Math.ceil(-n * Math.log(p) / (ln2 * ln2)));
    long m = (bits + 63) / 64 * 64;
    int k = (int) Math.max(1, Math.min(30, Math.round((double) bits / n * ln2)));
    return Math.pow(1 - Math.exp(-(double) k * n / m), k);
  }

  private static int deepest(List<RunInfo> runs) {
    int d = 0;
    for (RunInfo r : runs) {
      d = Math.max(d, r.level());
    }
    return d;
  }

  private static long number(ComponentInfo c) {
    return Long.parseLong(c.name().substring(0, 12));
  }
}
