package org.strata.lsm.dataset;

import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.TreeMap;
import org.strata.lsm.Utf8;
import org.strata.lsm.component.Varint;

/**
 * The primary index's value: a record's fields as {@code count, (name length, name, value length,
 * value)*}, lengths as unsigned varints, strings UTF-8, fields sorted by name (docs/format.md).
 * Both directions are strict ({@link Utf8}): a name or value that is not valid Unicode text is
 * refused rather than stored changed, and stored bytes that are not UTF-8 fail to decode.
 *
 * <p>Public so the codec can be measured on its own (the {@code benchmarks} module); datasets use
 * it for every record they write and read.
 */
public final class RecordCodec {
  private RecordCodec() {}

  /**
   * The stored form of {@code fields} (any map; the encoding is sorted by field name).
   *
   * @throws IllegalArgumentException naming the field whose name or value is not valid Unicode
   */
  public static byte[] encode(Map<String, String> fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 + fields.size() * 16);
    Map<String, String> sorted = fields instanceof TreeMap ? fields : new TreeMap<>(fields);
    putVarint(out, sorted.size());
    for (Map.Entry<String, String> e : sorted.entrySet()) {
      putString(out, Utf8.encode(e.getKey(), "field name", e.getKey()));
      putString(out, Utf8.encode(e.getValue(), "value of field", e.getKey()));
    }
    return out.toByteArray();
  }

  /**
   * The fields stored in {@code data}, in a map sorted by field name.
   *
   * @throws IllegalArgumentException if {@code data} is not a well-formed record
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
      String name = getString(data, pos, "field name", null);
      fields.put(name, getString(data, pos, "value of field", name));
    }
    if (pos[0] != data.length) {
      throw new IllegalArgumentException("record has " + (data.length - pos[0])
          + " trailing bytes");
    }
    return fields;
  }

  private static void putString(ByteArrayOutputStream out, byte[] b) {
    putVarint(out, b.length);
    out.write(b, 0, b.length);
  }

  private static void putVarint(ByteArrayOutputStream out, int v) {
    byte[] buf = new byte[5];
    int n = Varint.put(buf, 0, v);
    out.write(buf, 0, n);
  }

  private static String getString(byte[] data, int[] pos, String what, String name) {
    long len = getVarint(data, pos);
    if (len < 0 || pos[0] + len > data.length) {
      throw new IllegalArgumentException("record field runs past its end");
    }
    String s = Utf8.decode(data, pos[0], (int) len, "record " + what, name);
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
