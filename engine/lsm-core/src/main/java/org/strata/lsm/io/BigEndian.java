package org.strata.lsm.io;

/** Big-endian integers in byte arrays: the byte order of every Strata file format. */
public final class BigEndian {
  private BigEndian() {}

  public static int getInt(byte[] b, int p) {
    return (b[p] & 0xFF) << 24 | (b[p + 1] & 0xFF) << 16 | (b[p + 2] & 0xFF) << 8
        | (b[p + 3] & 0xFF);
  }

  public static long getLong(byte[] b, int p) {
    return ((long) getInt(b, p) << 32) | (getInt(b, p + 4) & 0xFFFFFFFFL);
  }

  public static void putInt(byte[] b, int p, int v) {
    b[p] = (byte) (v >>> 24);
    b[p + 1] = (byte) (v >>> 16);
    b[p + 2] = (byte) (v >>> 8);
    b[p + 3] = (byte) v;
  }

  public static void putLong(byte[] b, int p, long v) {
    putInt(b, p, (int) (v >>> 32));
    putInt(b, p + 4, (int) v);
  }
}
