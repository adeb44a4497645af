package org.strata.lsm.component;

/** Unsigned LEB128 variable-length integers (7 bits per byte, low bits first), as used in pages. */
public final class Varint {
  private Varint() {}

  /** Bytes needed to encode {@code v} (a non-negative int). */
  public static int size(int v) {
    int n = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code v} at {@code pos}; returns the position after it. */
  public static int put(byte[] buf, int pos, int v) {
    while ((v & ~0x7F) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
    return pos;
  }

  /** Reads a varint at {@code pos}; the value is in the low 32 bits, the next position above. */
  public static long get(byte[] buf, int pos) {
    int v = 0;
    int shift = 0;
    while (true) {
      byte b = buf[pos++];
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        return ((long) pos << 32) | (v & 0xFFFFFFFFL);
      }
      shift += 7;
      if (shift > 28) {
        throw new IllegalArgumentException("varint longer than 5 bytes");
      }
    }
  }
}
