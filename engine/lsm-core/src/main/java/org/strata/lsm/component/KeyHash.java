package org.strata.lsm.component;

/**
 * A fast 64-bit hash of key bytes for Bloom filters and sketches: 8-byte little-endian words are
 * folded with multiply-rotate steps, then finished with the SplitMix64 finaliser. Stable across
 * versions: it is part of the on-disk format (Bloom filter bits depend on it).
 */
public final class KeyHash {
  private static final long P1 = 0x9E3779B97F4A7C15L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;

  private KeyHash() {}

  /** Hash of {@code key[0..len)}. */
  public static long hash64(byte[] key, int off, int len) {
    long h = P2 ^ (len * P1);
    int i = off;
    int end = off + len;
    while (i + 8 <= end) {
      long w = (key[i] & 0xFFL) | (key[i + 1] & 0xFFL) << 8 | (key[i + 2] & 0xFFL) << 16
          | (key[i + 3] & 0xFFL) << 24 | (key[i + 4] & 0xFFL) << 32 | (key[i + 5] & 0xFFL) << 40
          | (key[i + 6] & 0xFFL) << 48 | (key[i + 7] & 0xFFL) << 56;
      h = Long.rotateLeft(h ^ (w * P1), 31) * P2;
      i += 8;
    }
    long tail = 0;
    int shift = 0;
    while (i < end) {
      tail |= (key[i++] & 0xFFL) << shift;
      shift += 8;
    }
    h = Long.rotateLeft(h ^ (tail * P1), 27) * P1;
    return mix(h);
  }

  /** Hash of a whole key. */
  public static long hash64(byte[] key) {
    return hash64(key, 0, key.length);
  }

  /** The SplitMix64 finaliser (also each independent probe of a {@link BloomFilter}). */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
