package org.strata.lsm.dataset;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.strata.lsm.component.Varint;

/**
 * The primary index's value: a record's fields as {@code count, (name length, name, value length,
 * value)*}, lengths as unsigned varints, strings UTF-8, fields sorted by name (docs/format.md).
 *
 * <p>Public so the codec can be measured on its own (the {@code benchmarks} module); datasets use
 * it for every record they write and read.
 */
public final class RecordCodec {
  private RecordCodec() {}

  /** Encodes a record's fields (any map; the encoding is sorted by field name). */
  public static byte[] encode(Map<String, String> fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 + fields.size() * 16);
    Map<String, String> sorted = fields instanceof TreeMap ? fields : new TreeMap<>(fields);
    putVarint(out, sorted.size());
    for (Map.Entry<String, String> e : sorted.entrySet()) {
      putString(out, e.getKey());
      putString(out, e.getValue());
    }
    return out.toByteArray();
  }

  /**
   * Decodes what {@link #encode} produced into a map sorted by field name.
   *
   * @throws IllegalArgumentException if {@code data} is not a whole encoded record
   */
  public static Map<String, String> decode(byte[] data) {
    int[] pos = {0};
    long n = getVarint(data, pos);
    if (n > data.length) {
      throw new IllegalArgumentException("record claims " + n + " fields in " + data.length
          + " bytes");
    }
    Map<String, String> fields = new TreeMap<>();
    for (long i = 0; i < n; i++) {
      String name = getString(data, pos);
      fields.put(name, getString(data, pos));
    }
    if (pos[0] != data.length) {
      throw new IllegalArgumentException("record has " + (data.length - pos[0])
          + " trailing bytes");
    }
    return fields;
  }

  private static void putString(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putVarint(out, b.length);
    out.write(b, 0, b.length);
  }

  private static void putVarint(ByteArrayOutputStream out, int v) {
    byte[] buf = new byte[5];
    int n = Varint.put(buf, 0, v);
    out.write(buf, 0, n);
  }

  private static String getString(byte[] data, int[] pos) {
    long len = getVarint(data, pos);
    if (len < 0 || pos[0] + len > data.length) {
      throw new IllegalArgumentException("record field runs past its end");
    }
    String s = new String(data, pos[0], (int) len, StandardCharsets.UTF_8);
    pos[0] += (int) len;
    return s;
  }

  private static long getVarint(byte[] data, int[] pos) {
    if (pos[0] >= data.length) {
      throw new IllegalArgumentException("record ends inside a length");
    }
    long r;
    try {
      r = Varint.get(data, pos[0]);
    } catch (ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("record ends inside a length");
    }
    pos[0] = (int) (r >>> 32);
    return r & 0xFFFFFFFFL;
  }
}
