package org.strata.lsm.component;

import java.util.Arrays;

/**
 * The first key of each page of one level of a component being written, in order: what the level
 * above indexes. The keys sit end to end in one byte array with their offsets in an int array, so
 * a component of a million pages holds two arrays rather than a million small ones. A merge writes
 * its output for as long as it runs, and a list of per-key arrays lived through every young
 * collection meanwhile, copied by each (a 500 MB output has about 125,000 leaves); two large arrays
 * are copied by none.
 */
final class SeparatorKeys {
  private byte[] bytes = new byte[4096];
  private int[] starts = new int[257];
  private int count;

  /** Appends a copy of the key slice. */
  void add(byte[] key, int off, int len) {
    int at = starts[count];
    if (at + len > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, at + len));
    }
    if (count + 2 > starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    System.arraycopy(key, off, bytes, at, len);
    count++;
    starts[count] = at + len;
  }

  /** Keys added so far. */
  int size() {
    return count;
  }

  /** The array holding key {@code i} (valid until the next {@link #add}). */
  byte[] array() {
    return bytes;
  }

  /** Where key {@code i} starts in {@link #array()}. */
  int offset(int i) {
    return starts[i];
  }

  /** Length of key {@code i}. */
  int length(int i) {
    return starts[i + 1] - starts[i];
  }
}
