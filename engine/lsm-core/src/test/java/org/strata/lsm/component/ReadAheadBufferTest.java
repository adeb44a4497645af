package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;

/**
 * Scanners of several components opened one after another on one {@link ReadAheadBuffer} (as a
 * merge reads a run of files) return every entry of each, including pages larger than the buffer,
 * and share one array while no page outgrows it.
 */
class ReadAheadBufferTest {
  @TempDir Path tmp;

  private static byte[] key(int i) {
    return String.format("key-%07d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** Writes a component of the model's entries; null values are anti-matter. */
  private DiskComponent write(String name, TreeMap<Integer, byte[]> model) throws Exception {
    Path file = tmp.resolve(name);
    try (WritableFile f = FileIo.standard().create(file);
        ComponentWriter w = new ComponentWriter(f, IoThrottle.unlimited(), 0, 4096, 0.01,
            1, 1, 1, 0)) {
      for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
        w.add(key(e.getKey()), e.getValue());
      }
      w.finish();
    }
    return DiskComponent.open(file, 1, new PageCache(64 << 10));
  }

  private static TreeMap<Integer, byte[]> model(SplittableRandom rnd, int from, int count,
      int oversized) {
    TreeMap<Integer, byte[]> m = new TreeMap<>();
    for (int i = from; i < from + count; i++) {
      boolean middle = i == from + count / 2; // the entry of the given size, never anti-matter
      byte[] v = new byte[middle ? oversized : rnd.nextInt(1200)];
      rnd.nextBytes(v);
      m.put(i, !middle && rnd.nextInt(30) == 0 ? null : v);
    }
    return m;
  }

  private static void scanAndCheck(DiskComponent c, ReadAheadBuffer buffer,
      TreeMap<Integer, byte[]> model) {
    List<Integer> keys = new ArrayList<>();
    try (SequentialLeafScanner s = c.sequentialScan(buffer)) {
      while (s.next()) {
        int k = Integer.parseInt(new String(s.key(), StandardCharsets.UTF_8).substring(4));
        keys.add(k);
        assertThat(s.value()).as("value of key %d", k).isEqualTo(model.get(k));
      }
    }
    assertThat(keys).containsExactlyElementsOf(model.keySet());
  }

  @Test
  void componentsReadOneAfterAnotherIntoOneBuffer() throws Exception {
    SplittableRandom rnd = new SplittableRandom(5);
    // Each component is larger than the buffer, so each scan refills it several times.
    int perComponent = 3 * ReadAheadBuffer.DEFAULT_SIZE / 600;
    TreeMap<Integer, byte[]> first = model(rnd, 0, perComponent, 100);
    TreeMap<Integer, byte[]> second = model(rnd, perComponent, perComponent, 100);
    DiskComponent a = write("a.cmp", first);
    DiskComponent b = write("b.cmp", second);
    try {
      ReadAheadBuffer buffer = new ReadAheadBuffer();
      scanAndCheck(a, buffer, first);
      byte[] array = buffer.array(1);
      assertThat(array).hasSize(ReadAheadBuffer.DEFAULT_SIZE);
      scanAndCheck(b, buffer, second);
      assertThat(buffer.array(1)).as("the second scan read into the first scan's array")
          .isSameAs(array);
    } finally {
      a.release();
      b.release();
    }
  }

  @Test
  void aPageLargerThanTheBufferGrowsItAndLaterScansStillRead() throws Exception {
    SplittableRandom rnd = new SplittableRandom(9);
    int huge = ReadAheadBuffer.DEFAULT_SIZE + 300_000; // one entry, one page, over the buffer
    TreeMap<Integer, byte[]> big = model(rnd, 0, 2000, huge);
    TreeMap<Integer, byte[]> small = model(rnd, 2000, 2000, 10);
    DiskComponent a = write("big.cmp", big);
    DiskComponent b = write("small.cmp", small);
    try {
      ReadAheadBuffer buffer = new ReadAheadBuffer();
      scanAndCheck(a, buffer, big);
      assertThat(buffer.array(1).length).isGreaterThan(huge);
      scanAndCheck(b, buffer, small);
      scanAndCheck(a, buffer, big);
    } finally {
      a.release();
      b.release();
    }
  }
}
