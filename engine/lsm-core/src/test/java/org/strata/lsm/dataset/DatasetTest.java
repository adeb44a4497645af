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
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StrataException;
import org.strata.lsm.Utf8;

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

  /** Keys a lenient conversion would change or merge, each a distinct key here. */
  static final List<String> EXOTIC_KEYS = List.of(
      "\ud83d\ude00", // U+1F600, a supplementary character (a surrogate pair)
      "\udbff\udfff", // U+10FFFF, the last code point
      "\u0000", "a\u0000b", // NUL alone and inside
      "e\u0301", "\u00e9", // e + combining acute, and precomposed e-acute: not normalized
      "\ufffd", "?", // the replacement character and the question mark are real keys
      "\u200b\u2028\ufeff", "k\ud800\udc00z");

  @Test
  void everyAcceptedKeyFieldNameAndValueIsStoredByteForByte() {
    Path dir = tmp.resolve("ds");
    Map<String, Map<String, String>> written = new java.util.TreeMap<>();
    try (Dataset ds = Dataset.open(dir, DatasetModelTest.config(SecondaryMaintenance.EAGER, 2))) {
      for (String k : EXOTIC_KEYS) {
        Map<String, String> f = Map.of("f1", "v" + k, "n\u0301\ud83d\ude00", k + "\u0000");
        ds.upsert(k, f);
        written.put(k, f);
      }
      ds.flush(); // read back from disk components too
    }
    try (Dataset ds = Dataset.open(dir, null)) {
      for (String k : EXOTIC_KEYS) {
        assertThat(ds.get(k)).as("get %s", Utf8.printable(k)).map(DatasetRecord::fields)
            .contains(written.get(k));
        assertThat(ds.get(k).orElseThrow().key().codePoints().toArray())
            .isEqualTo(k.codePoints().toArray());
        assertThat(ds.queryEq("by_f1", "v" + k)).as("query %s", Utf8.printable(k))
            .extracting(DatasetRecord::key).containsExactly(k);
      }
      List<String> byBytes = new ArrayList<>(EXOTIC_KEYS);
      byBytes.sort((a, b) -> java.util.Arrays.compareUnsigned(a.getBytes(
          java.nio.charset.StandardCharsets.UTF_8), b.getBytes(
          java.nio.charset.StandardCharsets.UTF_8)));
      assertThat(ds.scan(null, 100)).extracting(DatasetRecord::key).containsExactlyElementsOf(
          byBytes);
      assertThat(ds.scan(null, 100)).extracting(DatasetRecord::fields)
          .containsExactlyElementsOf(byBytes.stream().map(written::get).toList());
      assertThat(ds.verify().faults()).isEmpty();
    }
  }

  @Test
  void aLoneSurrogateIsRefusedOnEveryApiPathAndNothingIsStored() {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"),
        DatasetModelTest.config(SecondaryMaintenance.EAGER, 2))) {
      ds.upsert("before", Map.of("f1", "a"));
      assertThatThrownBy(() -> ds.upsert("\ud800", Map.of("f1", "a")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("key is not valid Unicode text: lone surrogate U+D800 at index"
              + " 0;");
      assertThatThrownBy(() -> ds.upsert("k1", Map.of("f\ud800", "a")))
          .hasMessageStartingWith("field name 'f\\uD800' is not valid Unicode text: lone"
              + " surrogate U+D800 at index 1;");
      assertThatThrownBy(() -> ds.upsert("k2", Map.of("f1", "a\udfff")))
          .hasMessageStartingWith("value of field 'f1' is not valid Unicode text: lone surrogate"
              + " U+DFFF at index 1;");
      assertThatThrownBy(() -> ds.upsert("k3", Map.of("f9", "\ud83d")))
          .hasMessageStartingWith("value of field 'f9' is not valid Unicode text");
      assertThatThrownBy(() -> ds.delete("\ud800")).hasMessageStartingWith("key is not valid");
      assertThatThrownBy(() -> ds.get("\ud800")).hasMessageStartingWith("key is not valid");
      assertThatThrownBy(() -> ds.scan("\ud800", 10)).hasMessageStartingWith("key is not valid");
      assertThatThrownBy(() -> ds.queryEq("by_f1", "\ud800"))
          .hasMessageContaining("not valid Unicode text");
      assertThatThrownBy(() -> ds.queryRange("by_f1", "a", "\udc00"))
          .hasMessageStartingWith("upper bound of the query on 'by_f1' is not valid");
      ds.upsert("after", Map.of("f1", "a"));
      // Nothing of the refused writes landed, under the key or under '?' (the lenient encoding).
      assertThat(ds.scan(null, 100)).extracting(DatasetRecord::key)
          .containsExactly("after", "before");
      assertThat(ds.queryEq("by_f1", "a")).extracting(DatasetRecord::key)
          .containsExactly("after", "before");
      assertThat(ds.queryEq("by_f1", "a?")).isEmpty();
      assertThat(ds.verify().faults()).isEmpty();
    }
  }

  @Test
  void aSecondaryIndexOnAFieldNameThatIsNotUnicodeIsRefused() {
    assertThatThrownBy(() -> new SecondaryIndexSpec("by_x", "x\ud800"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("secondary-indexes.field is not valid Unicode text");
  }

  @Test
  void aScanInPiecesResumesJustAfterTheLastKeyOfThePieceBefore() {
    String longest = "z".repeat(org.strata.lsm.Limits.MAX_KEY_BYTES);
    List<String> keys = List.of("a", "a\u0000", "a\u0000\u0000", "a\u0001", "b", longest);
    // No secondary index: its entries (value + primary key) would not fit the longest key.
    DatasetConfig cfg = new DatasetConfig(DatasetModelTest.config(SecondaryMaintenance.EAGER, 3)
        .store(), List.of(), SecondaryMaintenance.EAGER, 3);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), cfg)) {
      for (String k : keys) {
        ds.upsert(k, Map.of("f1", "v"));
      }
      // Two records a piece, each piece starting after the last key of the one before.
      List<String> got = new ArrayList<>();
      String from = "a";
      boolean inclusive = true;
      while (true) {
        List<String> piece = new ArrayList<>();
        int n = ds.scan(from, inclusive, 100, r -> {
          piece.add(r.key());
          return piece.size() < 2;
        });
        assertThat(n).isEqualTo(piece.size());
        got.addAll(piece);
        if (piece.size() < 2) {
          break;
        }
        from = piece.get(1);
        inclusive = false;
      }
      assertThat(got).containsExactlyElementsOf(keys);
      // After the longest possible key there is nothing, and no error for the bound above it.
      assertThat(ds.scan(longest, false, 10, r -> true)).isZero();
      assertThat(ds.scan("a", true, 3, r -> true)).isEqualTo(3);
    }
  }
}
