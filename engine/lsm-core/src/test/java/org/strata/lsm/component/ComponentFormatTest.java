package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;

class ComponentFormatTest {
  @TempDir Path tmp;

  private static byte[] k(int i) {
    return String.format("key-%07d", i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void bulkLoadedTreeAnswersLookupsAndRangesIncludingOversizedEntries() throws Exception {
    Random rnd = new Random(1);
    TreeMap<Integer, byte[]> model = new TreeMap<>();
    for (int i = 0; i < 30_000; i += 1 + rnd.nextInt(3)) {
      int len = rnd.nextInt(100) == 0 ? 5000 + rnd.nextInt(20_000) : rnd.nextInt(120);
      byte[] v = new byte[len];
      rnd.nextBytes(v);
      model.put(i, rnd.nextInt(20) == 0 ? null : v);
    }
    Path file = tmp.resolve("c.cmp");
    ComponentMeta meta;
    try (WritableFile f = FileIo.standard().create(file);
        ComponentWriter w = new ComponentWriter(f, IoThrottle.unlimited(), 64 << 10, 1024, 0.01,
            3, 9, 77, 123)) {
      for (var e : model.entrySet()) {
        w.add(k(e.getKey()), e.getValue());
      }
      meta = w.finish();
    }
    assertThat(meta.treeHeight()).isGreaterThanOrEqualTo(3);
    DiskComponent c = DiskComponent.open(file, 1, new PageCache(64 << 10));
    try {
      assertThat(c.meta()).usingRecursiveComparison().isEqualTo(meta);
      assertThat(c.meta().minComponentId()).isEqualTo(3);
      assertThat(c.meta().maxComponentId()).isEqualTo(9);
      assertThat(c.meta().maxLsn()).isEqualTo(77);
      for (int i = -1; i < 30_001; i++) {
        DiskComponent.Lookup l = c.get(k(i), KeyHash.hash64(k(i)));
        if (!model.containsKey(i)) {
          assertThat(l).as("key %d", i).isNull();
        } else if (model.get(i) == null) {
          assertThat(l.isAntimatter()).isTrue();
        } else {
          assertThat(l.value()).isEqualTo(model.get(i));
        }
      }
      for (int[] range : new int[][] {{0, 29_999}, {500, 700}, {-5, 3}, {29_990, 40_000},
          {1234, 1234}}) {
        List<Integer> expected = new ArrayList<>(model.subMap(range[0], true, range[1], true)
            .keySet());
        List<Integer> actual = new ArrayList<>();
        try (EntryCursor cur = c.cursor(k(range[0]), k(range[1]))) {
          while (cur.next()) {
            int key = Integer.parseInt(new String(cur.key(), StandardCharsets.UTF_8).substring(4));
            actual.add(key);
            assertThat(cur.value()).isEqualTo(model.get(key));
          }
        }
        assertThat(actual).as("range %s", Arrays.toString(range)).isEqualTo(expected);
      }
      assertThat(ComponentVerifier.verify(c).faults()).isEmpty();
    } finally {
      c.release();
    }
  }

  /**
   * Keys of many lengths (up to several hundred bytes, longer than the writer's first-key buffer
   * and than one interior page holds many of) index correctly through every interior level: the
   * separator keys of each level are kept end to end in one array ({@link SeparatorKeys}).
   */
  @Test
  void keysOfManyLengthsAreFoundThroughEveryInteriorLevel() throws Exception {
    Random rnd = new Random(7);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    while (model.size() < 6_000) {
      byte[] key = new byte[1 + (rnd.nextInt(10) == 0 ? rnd.nextInt(700) : rnd.nextInt(40))];
      rnd.nextBytes(key);
      byte[] v = new byte[rnd.nextInt(60)];
      rnd.nextBytes(v);
      model.put(key, v);
    }
    Path file = tmp.resolve("long-keys.cmp");
    ComponentMeta meta;
    try (WritableFile f = FileIo.standard().create(file);
        ComponentWriter w = new ComponentWriter(f, IoThrottle.unlimited(), 0, 1024, 0.01, 1, 1,
            1, 1)) {
      for (var e : model.entrySet()) {
        w.add(e.getKey(), e.getValue());
      }
      meta = w.finish();
    }
    assertThat(meta.treeHeight()).isGreaterThanOrEqualTo(4);
    DiskComponent c = DiskComponent.open(file, 1, new PageCache(64 << 10));
    try {
      for (var e : model.entrySet()) {
        DiskComponent.Lookup l = c.get(e.getKey(), KeyHash.hash64(e.getKey()));
        assertThat(l).as("key of %d bytes", e.getKey().length).isNotNull();
        assertThat(l.value()).isEqualTo(e.getValue());
      }
      for (int i = 0; i < 2_000; i++) {
        byte[] absent = new byte[1 + rnd.nextInt(300)];
        rnd.nextBytes(absent);
        if (!model.containsKey(absent)) {
          assertThat(c.get(absent, KeyHash.hash64(absent))).isNull();
        }
      }
      List<byte[]> scanned = new ArrayList<>();
      try (EntryCursor cur = c.cursor(null, null)) {
        while (cur.next()) {
          scanned.add(cur.key());
        }
      }
      assertThat(scanned).containsExactlyElementsOf(model.keySet());
      assertThat(ComponentVerifier.verify(c).faults()).isEmpty();
    } finally {
      c.release();
    }
  }

  @Test
  void bloomFilterHasNoFalseNegativesAndAboutTheTargetFalsePositiveRate() {
    int n = 50_000;
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = KeyHash.hash64(k(i));
    }
    BloomFilter f = BloomFilter.build(hashes, n, 0.01);
    for (long h : hashes) {
      assertThat(f.mightContain(h)).isTrue();
    }
    int fp = 0;
    for (int i = n; i < 3 * n; i++) {
      if (f.mightContain(KeyHash.hash64(k(i)))) {
        fp++;
      }
    }
    assertThat(fp / (2.0 * n)).isBetween(0.002, 0.02);
  }
}
