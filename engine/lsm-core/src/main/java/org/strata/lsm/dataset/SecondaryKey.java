package org.strata.lsm.dataset;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.strata.lsm.Utf8;

/**
 * The key of a secondary index entry: the secondary value, escaped and terminated so that entries
 * sort by (value, primary key) under unsigned byte order, followed by the primary key. Escaping:
 * {@code 0x00} in the value becomes {@code 0x00 0xFF}; the terminator is {@code 0x00 0x01}. Every
 * entry of value {@code v} lies in {@code [esc(v) 00 01, esc(v) 00 02]}, and no entry equals the
 * upper bound, which makes equality and range queries plain scans (docs/format.md). Values are
 * given as their UTF-8 bytes, converted strictly by the caller ({@link Utf8}).
 *
 * <p>Public so the encoding can be measured on its own (the {@code benchmarks} module); only
 * {@link #encode} is public.
 */
public final class SecondaryKey {
  private SecondaryKey() {}

  /** The entry key for the UTF-8 bytes {@code value} and {@code primaryKey}. */
  public static byte[] encode(byte[] value, byte[] primaryKey) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + primaryKey.length + 4);
    escape(out, value);
    out.write(0);
    out.write(1);
    out.write(primaryKey, 0, primaryKey.length);
    return out.toByteArray();
  }

  /** The smallest possible entry key of value {@code value} (UTF-8 bytes). */
  static byte[] lowerBound(byte[] value) {
    return encode(value, new byte[0]);
  }

  /**
   * A key above every entry of value {@code value} (UTF-8 bytes) and below those of larger
   * values.
   */
  static byte[] upperBound(byte[] value) {
    byte[] k = lowerBound(value);
    k[k.length - 1] = 2;
    return k;
  }

  private static void escape(ByteArrayOutputStream out, byte[] value) {
    for (byte b : value) {
      out.write(b);
      if (b == 0) {
        out.write(0xFF);
      }
    }
  }

  /** A decoded entry: the secondary value and the primary key. */
  record Entry(String value, byte[] primaryKey) {}

  /** Splits an entry key; fails on a key without a terminator or a value that is not UTF-8. */
  static Entry decode(byte[] key) {
    ByteArrayOutputStream value = new ByteArrayOutputStream(key.length);
    for (int i = 0; i < key.length; i++) {
      byte b = key[i];
      if (b != 0) {
        value.write(b);
        continue;
      }
      if (i + 1 >= key.length) {
        break;
      }
      if ((key[i + 1] & 0xFF) == 0xFF) {
        value.write(0);
        i++;
      } else if (key[i + 1] == 1) {
        return new Entry(Utf8.decode(value.toByteArray(), "secondary index value"),
            Arrays.copyOfRange(key, i + 2, key.length));
      } else {
        break;
      }
    }
    throw new IllegalArgumentException("secondary index key has no value terminator");
  }
}
