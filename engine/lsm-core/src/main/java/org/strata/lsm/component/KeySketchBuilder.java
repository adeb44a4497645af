package org.strata.lsm.component;

import org.strata.lsm.spi.KeySketch;

/**
 * Builds the {@link KeySketch} of a component while it is written: each key's 64-bit hash sets
 * register {@code hash mod 2^12} to at least the position of the first one bit in the remaining
 * bits. Not thread-safe; one writer feeds one builder.
 */
public final class KeySketchBuilder {
  private final byte[] registers = new byte[KeySketch.REGISTERS];
  private long keysAdded;

  /** Adds a key by its 64-bit hash ({@link KeyHash#hash64(byte[])}). */
  public void add(long hash) {
    int bucket = (int) (hash & (KeySketch.REGISTERS - 1));
    long rest = hash >>> KeySketch.PRECISION;
    int rho = Math.min(64 - KeySketch.PRECISION + 1,
        Long.numberOfLeadingZeros(rest) - KeySketch.PRECISION + 1);
    if (rho > registers[bucket]) {
      registers[bucket] = (byte) rho;
    }
    keysAdded++;
  }

  /** Keys added so far (with repetitions). */
  public long keysAdded() {
    return keysAdded;
  }

  /** The sketch of the keys added so far. */
  public KeySketch build() {
    return KeySketch.of(registers, keysAdded);
  }
}
