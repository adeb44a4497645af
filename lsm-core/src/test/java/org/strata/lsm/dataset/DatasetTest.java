package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LsmStore;
import org.strata.lsm.StrataException;

class DatasetTest {
  @TempDir Path tmp;

  @Test
  void concurrentEagerWritersOfTheSameKeysLeaveNoStaleEntry() throws Exception {
    DatasetConfig cfg = DatasetModelTest.config(SecondaryMaintenance.EAGER, 3);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), cfg)) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        Thread th = new Thread(() -> {
          Random rnd = new Random(seed);
          for (int i = 0; i < 3000; i++) {
            String key = "k" + rnd.nextInt(40);
            if (rnd.nextInt(10) == 0) {
              ds.delete(key);
            } else {
              ds.upsert(key, Map.of("f1", "v" + rnd.nextInt(5), "f2", "w" + rnd.nextInt(5)));
            }
          }
        });
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      DatasetVerifier.Report r = ds.verify();
      assertThat(r.faults()).isEmpty();
      assertThat(r.staleEntries().values()).allMatch(n -> n == 0);
      long withV0 = 0;
      for (int k = 0; k < 40; k++) {
        withV0 += ds.get("k" + k).filter(rec -> rec.fields().get("f1").equals("v0")).isPresent()
            ? 1 : 0;
      }
      assertThat(ds.queryEq("by_f1", "v0")).hasSize((int) withV0);
    }
  }

  @Test
  void lazyMaintenanceKeepsStaleEntriesThatQueriesDrop() {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"),
        DatasetModelTest.config(SecondaryMaintenance.LAZY, 1))) {
      ds.upsert("k1", Map.of("f1", "a"));
      ds.upsert("k1", Map.of("f1", "b"));
      ds.upsert("k2", Map.of("f1", "a"));
      ds.delete("k2");
      assertThat(ds.queryEq("by_f1", "a")).isEmpty();
      assertThat(ds.queryEq("by_f1", "b")).extracting(DatasetRecord::key).containsExactly("k1");
      DatasetVerifier.Report r = ds.verify();
      assertThat(r.faults()).isEmpty();
      assertThat(r.staleEntries()).containsEntry("by_f1", 2L); // (a, k1) and (a, k2)
    }
  }

  @Test
  void theLayoutIsFixedAtCreation() {
    Path dir = tmp.resolve("ds");
    Dataset.open(dir, DatasetModelTest.config(SecondaryMaintenance.EAGER, 1)).close();
    assertThatThrownBy(() -> Dataset.open(dir, DatasetModelTest.config(SecondaryMaintenance.LAZY,
        1))).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("fixed at creation").hasMessageContaining("eager")
        .hasMessageContaining("lazy");
    assertThatThrownBy(() -> Dataset.open(dir, DatasetModelTest.config(
        SecondaryMaintenance.EAGER, 3))).hasMessageContaining("3 partition(s)");
  }

  @Test
  void aSecondOpenAndAPlainStoreDirectoryAreRefused() {
    Path dir = tmp.resolve("ds");
    try (Dataset ds = Dataset.open(dir, DatasetModelTest.config(SecondaryMaintenance.EAGER, 1))) {
      assertThatThrownBy(() -> Dataset.open(dir, null)).isInstanceOf(StrataException.class)
          .hasMessageContaining("in use");
    }
    Path store = tmp.resolve("store");
    LsmStore.open(store, DatasetModelTest.config(SecondaryMaintenance.EAGER, 1).store()).close();
    assertThatThrownBy(() -> Dataset.open(store, DatasetModelTest.config(
        SecondaryMaintenance.EAGER, 1))).hasMessageContaining("single-index store");
    assertThatThrownBy(() -> Dataset.open(tmp.resolve("none"), null))
        .hasMessageContaining("holds no dataset");
    assertThat(Files.exists(tmp.resolve("none"))).isFalse();
  }

  @Test
  void badRecordsAndQueriesFailClearly() {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"),
        DatasetModelTest.config(SecondaryMaintenance.EAGER, 1))) {
      assertThatThrownBy(() -> ds.upsert("", Map.of())).hasMessageContaining("key is empty");
      assertThatThrownBy(() -> ds.queryEq("by_f9", "x"))
          .hasMessageContaining("no secondary index 'by_f9'")
          .hasMessageContaining("by_f1, by_f2");
      ds.upsert("k\u0000", Map.of("f1", "a\u0000b")); // zero bytes in keys and values
      assertThat(ds.queryEq("by_f1", "a\u0000b")).extracting(DatasetRecord::key)
          .containsExactly("k\u0000");
      assertThat(ds.queryEq("by_f1", "a")).isEmpty();
      assertThat(ds.queryRange("by_f1", "a", "a\u0000c")).hasSize(1);
    }
  }
}
