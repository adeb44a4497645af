package org.strata.twophase;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One record's fields as {@link RecordShape#fields} generates them, held as the value bytes every
 * system without a record codec stores (the field values concatenated in field-name order), with
 * the fields as an unmodifiable map in field order over them: a loader that needs only the bytes
 * ({@link GeneratedRecord#valueBytes}) gets them without a string or map entry per field, and
 * the dataset API sees the same fields as before. Values are ASCII (letters and digits).
 */
final class RecordFields extends AbstractMap<String, String> {
  private final String[] names;
  private final byte[] value;
  private final int[] offsets;
  private final int[] lengths;

  /**
   * @param names the field names, in field order
   * @param value the field values concatenated in field-name order
   * @param offsets each field's (field order) offset in {@code value} (read only: every record of
   *     a shape shares them)
   * @param lengths each field's (field order) length (read only, shared likewise)
   */
  RecordFields(String[] names, byte[] value, int[] offsets, int[] lengths) {
    this.names = names;
    this.value = value;
    this.offsets = offsets;
    this.lengths = lengths;
  }

  /**
   * The value bytes: the record's own array, not a copy (a loader's write copies them into the
   * system under test, so a copy here would be a second kilobyte per record for the collector).
   * Read them; never change them.
   */
  byte[] valueBytes() {
    return value;
  }

  private String valueOf(int i) {
    return new String(value, offsets[i], lengths[i], StandardCharsets.ISO_8859_1);
  }

  @Override
  public String get(Object key) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(key)) {
        return valueOf(i);
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    for (String n : names) {
      if (n.equals(key)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < names.length;
          }

          @Override
          public Map.Entry<String, String> next() {
            if (next >= names.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(names[i], valueOf(i));
          }
        };
      }

      @Override
      public int size() {
        return names.length;
      }
    };
  }
}
