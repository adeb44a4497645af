package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.component.ComponentWriter;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.component.ReadAheadBuffer;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;

/**
 * A merge's read side as a merge uses it: runs of real component files (several files per run,
 * read one after another through one read buffer per run, each file larger than one read), merged
 * by {@link MergingCursor}, each value taken as a slice of its input's read buffer. Checked against
 * a sorted-map model: the newest run's version of each key, anti-matter and empty values included;
 * every fourth value is also copied out with {@code value()}, which must agree with the slice.
 */
class MergeValueSliceTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4})
  void slicesHoldTheNewestVersionOfEachKey(long seed) throws IOException {
    System.out.println("MergeValueSliceTest seed " + seed);
    SplittableRandom r = new SplittableRandom(seed);
    int runCount = 2 + r.nextInt(4);
    // per run, the entries of each of its files; run 0 is the newest
    List<List<TreeMap<String, byte[]>>> runs = new ArrayList<>();
    for (int run = 0; run < runCount; run++) {
      TreeMap<String, byte[]> entries = new TreeMap<>(); // null value: anti-matter
      int n = 2000 + r.nextInt(3000);
      for (int e = 0; e < n; e++) {
        String k = String.format("k%06d", r.nextInt(8000));
        entries.put(k, r.nextInt(6) == 0 ? null : value(r, run, e));
      }
      // cut the run into 1-3 files with disjoint, ascending key ranges
      int files = 1 + r.nextInt(3);
      List<TreeMap<String, byte[]>> parts = new ArrayList<>();
      List<String> keys = new ArrayList<>(entries.keySet());
      for (int f = 0; f < files; f++) {
        TreeMap<String, byte[]> part = new TreeMap<>();
        for (String k : keys.subList(f * keys.size() / files, (f + 1) * keys.size() / files)) {
          part.put(k, entries.get(k));
        }
        parts.add(part);
      }
      runs.add(parts);
    }
    TreeMap<String, byte[]> newest = new TreeMap<>();
    TreeMap<String, Boolean> decided = new TreeMap<>();
    for (List<TreeMap<String, byte[]>> run : runs) {
      for (TreeMap<String, byte[]> part : run) {
        for (Map.Entry<String, byte[]> e : part.entrySet()) {
          if (decided.putIfAbsent(e.getKey(), true) == null) {
            newest.put(e.getKey(), e.getValue());
          }
        }
      }
    }
    PageCache cache = new PageCache(0);
    List<List<DiskComponent>> components = new ArrayList<>();
    long id = 1;
    for (List<TreeMap<String, byte[]>> run : runs) {
      List<DiskComponent> files = new ArrayList<>();
      for (TreeMap<String, byte[]> part : run) {
        if (!part.isEmpty()) {
          files.add(write(dir.resolve("c" + id + ".cmp"), id++, part, cache));
        }
      }
      components.add(files);
    }
    try {
      // the premise: some file spans more than one read, so its buffer is refilled mid-file
      assertThat(components.stream().flatMap(List::stream)
          .mapToLong(DiskComponent::sizeBytes).max().orElse(0))
          .isGreaterThan(ReadAheadBuffer.DEFAULT_SIZE);
      for (boolean skip : new boolean[] {false, true}) {
        List<EntryCursor> sources = new ArrayList<>();
        for (List<DiskComponent> files : components) {
          ReadAheadBuffer readAhead = new ReadAheadBuffer(); // one per run, as a merge has
          sources.add(new ConcatCursor(files, c -> c.sequentialScan(readAhead)));
        }
        List<String> seen = new ArrayList<>();
        try (MergingCursor m = new MergingCursor(sources, skip)) {
          int i = 0;
          while (m.next()) {
            String k = new String(m.key(), StandardCharsets.UTF_8);
            seen.add(k);
            byte[] expected = newest.get(k);
            assertThat(m.isAntimatter()).as("seed %d, key %s is anti-matter", seed, k)
                .isEqualTo(expected == null);
            if (expected != null) {
              byte[] slice = Arrays.copyOfRange(m.valueArray(), m.valueOffset(),
                  m.valueOffset() + m.valueLength());
              assertThat(slice).as("seed %d, key %s, slice", seed, k).isEqualTo(expected);
              if (i++ % 4 == 0) {
                assertThat(m.value()).as("seed %d, key %s, copy", seed, k).isEqualTo(expected);
              }
            } else {
              assertThat(m.value()).isNull();
            }
          }
          assertThat(m.next()).isFalse();
        }
        List<String> expectedKeys = new ArrayList<>();
        newest.forEach((k, v) -> {
          if (!skip || v != null) {
            expectedKeys.add(k);
          }
        });
        assertThat(seen).as("seed %d, skip anti-matter %s", seed, skip).isEqualTo(expectedKeys);
      }
    } finally {
      components.forEach(files -> files.forEach(DiskComponent::release));
    }
  }

  /** Empty, short or longer than a page; about 1 KB on average, so a file spans several reads. */
  private static byte[] value(SplittableRandom r, int run, int e) {
    int len = switch (r.nextInt(8)) {
      case 0 -> 0;
      case 1 -> 5000 + r.nextInt(3000);
      default -> r.nextInt(1500);
    };
    byte[] v = new byte[len];
    r.nextBytes(v);
    if (len >= 8) {
      v[0] = (byte) run;
      v[1] = (byte) e;
    }
    return v;
  }

  private static DiskComponent write(Path file, long id, TreeMap<String, byte[]> entries,
      PageCache cache) throws IOException {
    try (ComponentWriter w = new ComponentWriter(FileIo.standard().create(file),
        IoThrottle.unlimited(), 16L << 20, 4096, 0.01, id, id, 0, 0)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        w.add(e.getKey().getBytes(StandardCharsets.UTF_8), e.getValue());
      }
      w.finish();
    }
    return DiskComponent.open(file, id, cache);
  }
}
