package org.strata.ycsb;

import java.util.HashMap;
import java.util.Map;
import org.strata.lsm.Utf8;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

/**
 * YCSB's field values as the strings a Strata record holds, converted strictly. YCSB's own {@code
 * ByteIterator.toString()} decodes bytes leniently (malformed UTF-8 becomes U+FFFD), which would
 * store a changed value; here a field name or value that is not valid Unicode text, or bytes that
 * are not UTF-8, fail with an {@link IllegalArgumentException} naming the field.
 */
final class YcsbFields {
  private YcsbFields() {}

  /** The fields of a YCSB write; consumes the iterators. */
  static Map<String, String> toStrings(Map<String, ByteIterator> values) {
    Map<String, String> out = new HashMap<>(values.size() * 2);
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      String name = e.getKey();
      Utf8.check(name, "field name", name);
      ByteIterator v = e.getValue();
      String text;
      if (v instanceof StringByteIterator) {
        text = v.toString(); // the string it was made from (before any byte was read)
        Utf8.check(text, "value of field", name);
      } else {
        text = Utf8.decode(v.toArray(), "value of field", name);
      }
      out.put(name, text);
    }
    return out;
  }
}
