package org.strata.lsm.spi;

import java.util.Arrays;

/**
 * A HyperLogLog sketch of the distinct keys of a disk component (TRIAD-DISK), immutable: 2^12
 * one-byte registers (4 KB), fed with the 64-bit key hash the Bloom filter uses, and the number of
 * keys that were added. Sketches merge by taking the register-wise maximum; {@link #estimate()}
 * applies the standard bias constant and the small-range (linear counting) correction. Relative
 * error about 1.04/sqrt(4096), i.e. 1.6%.
 *
 * <p>The engine builds one while it writes a component ({@code
 * org.strata.lsm.component.KeySketchBuilder}) and stores it in the file; contexts that offer key
 * sketches answer {@link MergeContext#distinctKeys} from them. Policies see only such estimates.
 */
public final class KeySketch {
  /** log2 of the register count. */
  public static final int PRECISION = 12;
  /** Registers (and bytes). */
  public static final int REGISTERS = 1 << PRECISION;

  private final byte[] registers;
  private final long keysAdded;

  private KeySketch(byte[] registers, long keysAdded) {
    if (registers.length != REGISTERS) {
      throw new IllegalArgumentException("a sketch has " + REGISTERS + " registers, got "
          + registers.length);
    }
    if (keysAdded < 0) {
      throw new IllegalArgumentException("keys added cannot be negative, got " + keysAdded);
    }
    this.registers = registers;
    this.keysAdded = keysAdded;
  }

  /** A sketch from its registers (copied) and the number of keys that were added. */
  public static KeySketch of(byte[] registers, long keysAdded) {
    return new KeySketch(registers.clone(), keysAdded);
  }

  /** Keys added (with repetitions). */
  public long keysAdded() {
    return keysAdded;
  }

  /** A copy of the registers. */
  public byte[] registers() {
    return registers.clone();
  }

  /** The union of sketches: register-wise maximum; keysAdded adds up. */
  public static KeySketch merge(Iterable<KeySketch> sketches) {
    byte[] r = new byte[REGISTERS];
    long keys = 0;
    for (KeySketch s : sketches) {
      for (int i = 0; i < REGISTERS; i++) {
        r[i] = (byte) Math.max(r[i], s.registers[i]);
      }
      keys += s.keysAdded;
    }
    return new KeySketch(r, keys);
  }

  /** Estimated number of distinct keys. */
  public double estimate() {
    double m = REGISTERS;
    double sum = 0;
    int zeros = 0;
    for (byte b : registers) {
      sum += Math.scalb(1.0, -b);
      if (b == 0) {
        zeros++;
      }
    }
    double alpha = 0.7213 / (1 + 1.079 / m);
    double e = alpha * m * m / sum;
    if (e <= 2.5 * m && zeros > 0) {
      e = m * Math.log(m / zeros);
    }
    return e;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeySketch k && k.keysAdded == keysAdded
        && Arrays.equals(k.registers, registers);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(registers) * 31 + Long.hashCode(keysAdded);
  }
}
