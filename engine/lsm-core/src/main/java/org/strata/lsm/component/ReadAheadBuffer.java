package org.strata.lsm.component;

import org.strata.lsm.io.HeapRegions;

/**
 * The buffer a {@link SequentialLeafScanner} reads into, kept by its owner so that the scanners of
 * one merge input, opened one component after another, read into the same array instead of each
 * allocating its own.
 *
 * <p>Its size is one G1 region less 4 KiB when G1's regions are 1 to 4 MiB (so the array is one
 * humongous object: never copied by a young collection, and exactly one region), else 1 MiB less 4
 * KiB; reads stay multiples of the 4 KiB page. A page larger than the buffer grows it.
 *
 * <p>Not thread-safe, and only one scanner may use a buffer at a time: the owner closes one
 * component's scanner before it opens the next on the same buffer.
 */
public final class ReadAheadBuffer {
  /** Bytes of a new buffer (see the class comment). */
  public static final int DEFAULT_SIZE = defaultSize();

  private byte[] bytes;

  /** A buffer whose array is allocated at its first use. */
  public ReadAheadBuffer() {}

  /** The array, at least {@code length} bytes (allocated or grown here; contents not kept). */
  byte[] array(int length) {
    if (bytes == null || bytes.length < length) {
      bytes = new byte[Math.max(length, DEFAULT_SIZE)];
    }
    return bytes;
  }

  private static int defaultSize() {
    long region = HeapRegions.G1_REGION_BYTES;
    int page = 4 * 1024;
    if (region >= 1024 * 1024 && region <= 4 * 1024 * 1024) {
      return (int) region - page;
    }
    return 1024 * 1024 - page;
  }
}
