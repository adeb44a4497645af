package org.strata.lsm.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.Limits;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.FeedParser.RejectedLineException;

/**
 * Plain JSON records, one object per line, as AsterixDB's socket feed takes them ({@code
 * {"id":"t1","text":"hello","n":5}}), stored faithfully in a dataset whose fields are text: the
 * primary key is the value of a key field (a string, or an integer written as its digits); every
 * field is kept, the key field too; a string value is stored as it is, any other value (number,
 * boolean, null, array, object) as its JSON text, and the names of those fields are kept in the
 * reserved field {@value #TYPED_FIELDS} (a JSON array of names), so that {@link #toJson} gives back
 * the record as it was sent, value types included. A secondary index on a typed field indexes its
 * JSON text (so numbers order as text). A record may not use the name {@value #TYPED_FIELDS}.
 */
public final class PlainRecords {
  /** The reserved field that lists the fields stored as JSON text. */
  public static final String TYPED_FIELDS = "$json";

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private PlainRecords() {}

  /**
   * Parses one line of {@code length} bytes at {@code offset} (UTF-8) into an upsert keyed by
   * {@code keyField}; throws {@link RejectedLineException} naming what is wrong.
   */
  public static FeedRecord parse(byte[] line, int offset, int length, String keyField) {
    String text;
    try {
      text = Utf8.decode(line, offset, length, "line", null);
    } catch (IllegalArgumentException e) {
      throw new RejectedLineException(e.getMessage());
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new RejectedLineException("not valid JSON: "
          + Utf8.printable(e.getOriginalMessage(), 300));
    }
    if (root == null || !root.isObject()) {
      throw new RejectedLineException("expected a JSON object record such as {\"" + keyField
          + "\":\"t1\",\"text\":\"hello\"}");
    }
    JsonNode k = root.get(keyField);
    String key;
    if (k == null || k.isNull()) {
      throw new RejectedLineException("missing key field '" + Utf8.printable(keyField)
          + "' (--key-field)");
    } else if (k.isTextual() && !k.asText().isEmpty()) {
      key = k.asText();
    } else if (k.isIntegralNumber()) {
      key = k.bigIntegerValue().toString();
    } else {
      throw new RejectedLineException("key field '" + Utf8.printable(keyField) + "' must be a"
          + " non-empty string or an integer, found " + Utf8.printable(k.toString(), 100));
    }
    try {
      Limits.checkKey(Utf8.encode(key, "key"));
    } catch (IllegalArgumentException e) {
      throw new RejectedLineException(e.getMessage());
    }
    Map<String, String> fields = new LinkedHashMap<>();
    ArrayNode typed = MAPPER.createArrayNode();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      String name = e.getKey();
      if (name.equals(TYPED_FIELDS)) {
        throw new RejectedLineException("field name '" + TYPED_FIELDS + "' is reserved");
      }
      JsonNode v = e.getValue();
      String value = v.isTextual() ? v.asText() : v.toString();
      if (!v.isTextual()) {
        typed.add(name);
      }
      FeedParser.checkText(name, value);
      fields.put(name, value);
    }
    if (!typed.isEmpty()) {
      fields.put(TYPED_FIELDS, typed.toString());
    }
    return new FeedRecord(FeedRecord.Op.UPSERT, key, fields);
  }

  /**
   * The fields of a stored record as JSON: fields listed in {@value #TYPED_FIELDS} with their
   * JSON values, the others as strings, the reserved field left out. A record that was not stored
   * from a plain record has no typed fields and comes out as strings.
   */
  public static ObjectNode fieldsJson(DatasetRecord r) {
    Set<String> typed = new HashSet<>();
    String list = r.fields().get(TYPED_FIELDS);
    if (list != null) {
      try {
        JsonNode names = MAPPER.readTree(list);
        if (names.isArray()) {
          names.forEach(n -> typed.add(n.isTextual() ? n.asText() : null));
        }
      } catch (JsonProcessingException e) {
        typed.clear();
      }
      // Only a list written by parse (names of fields the record has) marks typed fields;
      // anything else is shown as the text it is.
      if (typed.isEmpty() || typed.contains(null) || !r.fields().keySet().containsAll(typed)) {
        typed.clear();
        list = null;
      }
    }
    ObjectNode o = MAPPER.createObjectNode();
    for (Map.Entry<String, String> e : r.fields().entrySet()) {
      if (list != null && e.getKey().equals(TYPED_FIELDS) && !typed.isEmpty()) {
        continue;
      }
      if (typed.contains(e.getKey())) {
        try {
          o.set(e.getKey(), MAPPER.readTree(e.getValue()));
          continue;
        } catch (JsonProcessingException bad) {
          // shown as text below
        }
      }
      o.put(e.getKey(), e.getValue());
    }
    return o;
  }

  /** A record stored from a plain record, as it was sent (its fields, typed). */
  public static ObjectNode toJson(DatasetRecord r) {
    return fieldsJson(r);
  }
}
