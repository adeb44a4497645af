package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.memory.MemoryComponent;

/**
 * The k-way merge against a sorted-map model: random sources (newest first) over overlapping key
 * ranges, with anti-matter; the newest source's version of each key wins, and anti-matter is kept
 * or skipped as asked.
 */
class MergingCursorTest {
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void mergesLikeTheNewestVersionOfEachKey(long seed) {
    System.out.println("MergingCursorTest seed " + seed);
    SplittableRandom r = new SplittableRandom(seed);
    int n = 1 + r.nextInt(12);
    List<MemoryComponent> sources = new ArrayList<>();
    TreeMap<String, byte[]> newest = new TreeMap<>(); // null value: anti-matter
    TreeMap<String, Boolean> decided = new TreeMap<>();
    for (int s = 0; s < n; s++) {
      sources.add(new MemoryComponent(s + 1));
    }
    // source 0 is the newest: a key's first source in rank order decides its value
    for (int s = 0; s < n; s++) {
      int entries = r.nextInt(200);
      for (int e = 0; e < entries; e++) {
        String k = String.format("k%04d", r.nextInt(300));
        byte[] v = r.nextInt(6) == 0 ? null : ("s" + s + "-" + e).getBytes(StandardCharsets.UTF_8);
        sources.get(s).put(k.getBytes(StandardCharsets.UTF_8), v, e + 1);
      }
    }
    for (int s = 0; s < n; s++) {
      try (var c = sources.get(s).cursor(null, null)) {
        while (c.next()) {
          String k = new String(c.key(), StandardCharsets.UTF_8);
          if (decided.putIfAbsent(k, true) == null) {
            newest.put(k, c.value());
          }
        }
      }
    }
    for (boolean skip : new boolean[] {false, true}) {
      List<org.strata.lsm.component.EntryCursor> cursors = new ArrayList<>();
      for (MemoryComponent mc : sources) {
        cursors.add(mc.cursor(null, null));
      }
      List<String> keys = new ArrayList<>();
      try (MergingCursor m = new MergingCursor(cursors, skip)) {
        while (m.next()) {
          String k = new String(m.key(), StandardCharsets.UTF_8);
          keys.add(k);
          assertThat(m.value()).as("seed %d, key %s", seed, k).isEqualTo(newest.get(k));
        }
        assertThat(m.next()).isFalse();
      }
      List<String> expected = new ArrayList<>();
      for (Map.Entry<String, byte[]> e : newest.entrySet()) {
        if (!skip || e.getValue() != null) {
          expected.add(e.getKey());
        }
      }
      assertThat(keys).as("seed %d, skip anti-matter %s", seed, skip).isEqualTo(expected);
      assertThat(Arrays.asList(keys.toArray())).doesNotHaveDuplicates();
    }
  }
}
