package org.strata.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.strata.lsm.component.ComponentWriter;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;

/** Writes real disk component files with the engine's {@link ComponentWriter} and opens them. */
final class BenchComponentLoader {
  /** The engine's default page size. */
  static final int PAGE_SIZE = 4096;

  private BenchComponentLoader() {}

  /**
   * Bulk-loads {@code sortedKeys} (strictly ascending), key {@code i} with value {@code i} modulo
   * the number of values, into {@code file} (4 KB pages, 1% Bloom filter, forced at the end, as a
   * flush writes it) and opens it through {@code cache}.
   */
  static DiskComponent write(Path file, long componentId, byte[][] sortedKeys, byte[][] values,
      PageCache cache) {
    try (ComponentWriter w = new ComponentWriter(FileIo.standard().create(file),
        IoThrottle.unlimited(), 16L << 20, PAGE_SIZE, 0.01, componentId, componentId, 0, 0)) {
      for (int i = 0; i < sortedKeys.length; i++) {
        w.add(sortedKeys[i], values[i % values.length]);
      }
      w.finish();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write component " + file, e);
    }
    return DiskComponent.open(file, componentId, cache);
  }
}
