package org.strata.lsm.engine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.engine.LsmTreeModelTest.Case;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.testing.property.Lists;
import org.strata.lsm.testing.property.PropertyRunner;

/**
 * The engine with TRIAD-LOG on, alone and with TRIAD-MEM, against a sorted-map model: the skewed
 * cases of {@link TriadMemModelTest} (flushes into CL-SSTables, merges that read values from log
 * segments, reopens that must not replay an indexed segment again), and concurrent writers while
 * flushes and merges run. Seeded; the seed is printed. (With TRIAD-DISK too: {@code
 * TriadOnTheEngineTest} in strata-cli, where the policy is.)
 */
class TriadLogModelTest {

  private static StoreConfig config(Case c, boolean mem) {
    return LsmTreeModelTest.config(c.maxComponents(), c.split()).withTriad(
        new TriadConfig(mem, HotKeySelector.TOP_K, 10.0, ByteSize.ofBytes(0), true));
  }

  @ParameterizedTest(name = "TRIAD-MEM {0}")
  @CsvSource({"false", "true"})
  void engineWithTriadLogBehavesLikeASortedMap(boolean mem) {
    PropertyRunner.forAll(TriadMemModelTest.skewedCases()).tries(5)
        .shrinkWith(Lists.shrinking(Case::ops, (c, ops) -> new Case(ops, c.maxComponents(),
            c.split()), 0))
        .check("engine with TRIAD-LOG (MEM " + mem + ") behaves like a sorted map",
            c -> LsmTreeModelTest.run(c.ops(), config(c, mem)));
  }

  @ParameterizedTest(name = "seed {0}, TRIAD-MEM {1}")
  @CsvSource({"21, false", "22, true"})
  void concurrentWritersFlushesMergesAndReopen(long seed, boolean mem) throws Exception {
    System.out.println("TriadLogModelTest.concurrentWriters seed " + seed);
    TriadMemModelTest.concurrentRun(seed, new TriadConfig(mem, HotKeySelector.TOP_K, 5.0,
        ByteSize.ofBytes(2048), true));
  }
}
