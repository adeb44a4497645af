package org.strata.lsm.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
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
   * <p>One pass measures every name and value in UTF-8 (checking that each is valid Unicode), a
   * second writes them straight into the one array of exactly that size: no copy of the map, no
   * per-string byte arrays, no growing buffer. A {@link SortedMap} in natural order is written in
   * its own order; any other map's entries are sorted by name first.
   *
   * @throws IllegalArgumentException naming the field whose name or value is not valid Unicode
   */
  public static byte[] encode(Map<String, String> fields) {
    List<Map.Entry<String, String>> entries = sortedEntries(fields);
    int n = entries.size();
    String[] strings = new String[2 * n]; // name, value, name, value, ... as measured
    int[] lengths = new int[2 * n];
    int size = Varint.size(n);
    for (int i = 0; i < n; i++) {
      Map.Entry<String, String> e = entries.get(i);
      String name = e.getKey();
      strings[2 * i] = name;
      strings[2 * i + 1] = e.getValue();
      lengths[2 * i] = utf8Length(name, "field name", name);
      lengths[2 * i + 1] = utf8Length(strings[2 * i + 1], "value of field", name);
      size = Math.addExact(size, Varint.size(lengths[2 * i]) + lengths[2 * i]);
      size = Math.addExact(size, Varint.size(lengths[2 * i + 1]) + lengths[2 * i + 1]);
    }
    byte[] out = new byte[size];
    int pos = Varint.put(out, 0, n);
    for (int i = 0; i < 2 * n; i++) {
      pos = Varint.put(out, pos, lengths[i]);
      pos = putUtf8(out, pos, strings[i], lengths[i]);
    }
    return out;
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

  /** The entries of {@code fields} in field-name order, without copying a sorted map. */
  private static List<Map.Entry<String, String>> sortedEntries(Map<String, String> fields) {
    List<Map.Entry<String, String>> entries = new ArrayList<>(fields.entrySet());
    boolean byName = fields instanceof SortedMap
        && ((SortedMap<String, String>) fields).comparator() == null;
    if (!byName) {
      entries.sort(Map.Entry.comparingByKey());
    }
    return entries;
  }

  /**
   * The number of UTF-8 bytes of {@code s}; throws as {@link Utf8#encode(String, String, String)}
   * does if {@code s} holds a lone surrogate.
   */
  private static int utf8Length(String s, String what, String name) {
    int len = s.length();
    int bytes = len;
    for (int i = 0; i < len; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (!Character.isSurrogate(c)) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < len
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2; // two chars, four bytes
        i++;
      } else {
        Utf8.encode(s, what, name); // throws, naming the lone surrogate
        throw new IllegalStateException("lone surrogate in " + what + " not refused");
      }
    }
    return bytes;
  }

  /**
   * Writes the {@code byteLen} UTF-8 bytes of {@code s} (measured and checked by {@link
   * #utf8Length}) at {@code pos}; returns the position after them.
   */
  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int), for ASCII only
  private static int putUtf8(byte[] out, int pos, String s, int byteLen) {
    int len = s.length();
    if (byteLen == len) {
      // All ASCII: the low byte of each char is its UTF-8 byte, which is exactly what this
      // (deprecated, because it drops the high byte) method copies, as a block for Latin-1 text.
      s.getBytes(0, len, out, pos);
      return pos + len;
    }
    for (int i = 0; i < len; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out[pos++] = (byte) c;
      } else if (c < 0x800) {
        out[pos++] = (byte) (0xC0 | (c >> 6));
        out[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        out[pos++] = (byte) (0xF0 | (cp >> 18));
        out[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        out[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[pos++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        out[pos++] = (byte) (0xE0 | (c >> 12));
        out[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[pos++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return pos;
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
