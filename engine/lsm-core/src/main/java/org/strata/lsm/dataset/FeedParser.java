package org.strata.lsm.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.strata.lsm.Limits;
import org.strata.lsm.Utf8;

/**
 * Parses ingestion lines: one JSON object per line, {@code {"op":"upsert","key":"k1","fields":
 * {"field0":"a",...}}} or {@code {"op":"delete","key":"k1"}}; {@code op} defaults to {@code
 * upsert}. Anything else is rejected with a {@link RejectedLineException} whose message is the
 * reason, and nothing of the line is applied. A parser {@link #forRequests() for feed connections}
 * also accepts {@code "ack": true} on writes, {@code {"op":"get","key":"k1"}} and {@code
 * {"op":"scan","key":"k1","count":100}} and {@code {"op":"stats"}}. Keys, field names and field
 * values must be valid Unicode text (a JSON escape such as {@code "\ud800"} can spell a lone
 * surrogate, which is refused, as are lines that are not UTF-8): nothing is accepted that would be
 * stored changed. Thread-safe.
 */
public final class FeedParser {
  /** Longest line accepted: a record of the largest value plus room for JSON. */
  public static final int MAX_LINE_BYTES = 17 * 1024 * 1024;
  /** Most records one scan request may ask for. */
  public static final int MAX_SCAN = 100_000;
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** A line that cannot be applied; the message says why. */
  public static final class RejectedLineException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public RejectedLineException(String reason) {
      super(reason);
    }
  }

  private final boolean requests;

  /** A parser of import lines: upserts and deletes. */
  public FeedParser() {
    this(false);
  }

  private FeedParser(boolean requests) {
    this.requests = requests;
  }

  /** A parser of feed-connection lines: writes (optionally acknowledged), gets and scans. */
  public static FeedParser forRequests() {
    return new FeedParser(true);
  }

  /** True if the line holds only spaces, tabs and line or form feeds: skipped, not rejected. */
  public static boolean isBlank(byte[] line, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      byte b = line[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != 0x0B && b != '\f') {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses one line of {@code length} bytes at {@code offset}, which must be UTF-8; throws {@link
   * RejectedLineException} naming what is wrong, e.g. the first malformed byte and its offset.
   */
  public FeedRecord parse(byte[] line, int offset, int length) {
    String text;
    try {
      text = Utf8.decode(line, offset, length, "line", null);
    } catch (IllegalArgumentException e) {
      throw new RejectedLineException(e.getMessage());
    }
    return parse(text);
  }

  /** Parses one line; throws {@link RejectedLineException} naming what is wrong. */
  public FeedRecord parse(String line) {
    JsonNode root = readObject(line);
    checkKeys(root);
    FeedRecord.Op op = parseOp(root);
    if (op == FeedRecord.Op.STATS) {
      if (root.size() != 1) {
        throw new RejectedLineException("a stats request is {\"op\":\"stats\"} alone");
      }
      return new FeedRecord(FeedRecord.Op.STATS, "", Map.of(), false, 0);
    }
    boolean ack = parseAck(root);
    int count = parseCount(root, op);
    String key = parseKey(root);
    JsonNode fieldsNode = root.get("fields");
    if (op != FeedRecord.Op.UPSERT) {
      if (fieldsNode != null) {
        throw new RejectedLineException("a" + (op == FeedRecord.Op.DELETE ? " delete" : " " + op
            .name().toLowerCase(java.util.Locale.ROOT)) + " takes no fields");
      }
      return new FeedRecord(op, key, Map.of(), ack, count);
    }
    return new FeedRecord(op, key, parseFields(fieldsNode), ack, 0);
  }

  /** The line's JSON object. */
  private static JsonNode readObject(String line) {
    JsonNode root;
    try {
      root = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new RejectedLineException("not valid JSON: "
          + Utf8.printable(e.getOriginalMessage(), 300));
    }
    if (root == null || !root.isObject()) {
      throw new RejectedLineException("expected a JSON object like {\"op\":\"upsert\",\"key\":"
          + "\"k1\",\"fields\":{\"field0\":\"a\"}}, found " + describe(root));
    }
    return root;
  }

  /** Refuses a key of the object that this parser does not know. */
  private void checkKeys(JsonNode root) {
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      boolean known = k.equals("op") || k.equals("key") || k.equals("fields")
          || (requests && (k.equals("ack") || k.equals("count")));
      if (!known) {
        throw new RejectedLineException("unknown key '" + Utf8.printable(k) + "'; allowed: "
            + (requests ? "op, key, fields, ack, count" : "op, key, fields"));
      }
    }
  }

  /** The line's operation: {@code op}, upsert when absent. */
  private FeedRecord.Op parseOp(JsonNode root) {
    JsonNode opNode = root.get("op");
    if (opNode == null) {
      return FeedRecord.Op.UPSERT;
    }
    String o = opNode.isTextual() ? opNode.asText() : null;
    if ("upsert".equals(o)) {
      return FeedRecord.Op.UPSERT;
    } else if ("delete".equals(o)) {
      return FeedRecord.Op.DELETE;
    } else if (requests && "get".equals(o)) {
      return FeedRecord.Op.GET;
    } else if (requests && "scan".equals(o)) {
      return FeedRecord.Op.SCAN;
    } else if (requests && "stats".equals(o)) {
      return FeedRecord.Op.STATS;
    }
    throw new RejectedLineException("unknown op " + (o == null ? describe(opNode) : "'"
        + Utf8.printable(o) + "'") + "; allowed: "
        + (requests ? "upsert, delete, get, scan, stats" : "upsert, delete"));
  }

  /** The line's {@code ack}, false when absent. */
  private static boolean parseAck(JsonNode root) {
    JsonNode ackNode = root.get("ack");
    if (ackNode == null) {
      return false;
    }
    if (!ackNode.isBoolean()) {
      throw new RejectedLineException("ack must be true or false, found " + describe(ackNode));
    }
    return ackNode.asBoolean();
  }

  /** The line's {@code count}: required for a scan, refused for anything else; 0 if none. */
  private static int parseCount(JsonNode root, FeedRecord.Op op) {
    JsonNode countNode = root.get("count");
    if (op == FeedRecord.Op.SCAN) {
      if (countNode == null || !countNode.canConvertToInt() || !countNode.isIntegralNumber()
          || countNode.asInt() < 1 || countNode.asInt() > MAX_SCAN) {
        throw new RejectedLineException("a scan needs count, an integer from 1 to " + MAX_SCAN
            + ", found " + describe(countNode));
      }
      return countNode.asInt();
    } else if (countNode != null) {
      throw new RejectedLineException("count belongs to scans only");
    }
    return 0;
  }

  /** The line's key: a non-empty string within the key limits. */
  private static String parseKey(JsonNode root) {
    JsonNode keyNode = root.get("key");
    if (keyNode == null || keyNode.isNull()) {
      throw new RejectedLineException("missing key: every line needs \"key\", a non-empty"
          + " string");
    }
    if (!keyNode.isTextual() || keyNode.asText().isEmpty()) {
      throw new RejectedLineException("key must be a non-empty string, found "
          + describe(keyNode));
    }
    String key = keyNode.asText();
    try {
      Limits.checkKey(Utf8.encode(key, "key"));
    } catch (IllegalArgumentException e) {
      throw new RejectedLineException(e.getMessage());
    }
    return key;
  }

  /** An upsert's fields, in line order; none when {@code fieldsNode} is null. */
  private static Map<String, String> parseFields(JsonNode fieldsNode) {
    Map<String, String> fields = new LinkedHashMap<>();
    if (fieldsNode == null) {
      return fields;
    }
    // An upsert may leave fields out (an empty record), but null is not an object: refused
    // rather than stored as an empty record.
    if (!fieldsNode.isObject()) {
      throw new RejectedLineException("fields must be an object of field names to strings,"
          + " found " + describe(fieldsNode));
    }
    for (Map.Entry<String, JsonNode> e : fieldsNode.properties()) {
      String name = e.getKey();
      if (name.equals(PlainRecords.TYPED_FIELDS)) {
        throw new RejectedLineException("field name '" + PlainRecords.TYPED_FIELDS + "' is"
            + " reserved (it lists the typed fields of plain records)");
      }
      if (!e.getValue().isTextual()) {
        throw new RejectedLineException("field '" + Utf8.printable(name) + "' is "
            + describe(e.getValue()) + "; field values must be strings");
      }
      String value = e.getValue().asText();
      checkText(name, value);
      fields.put(name, value);
    }
    return fields;
  }

  private static String describe(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    String kind = n.isNull() ? "null" : n.isTextual() ? "a string" : n.isNumber() ? "a number"
        : n.isBoolean() ? "a boolean" : n.isArray() ? "an array" : n.isObject() ? "an object"
        : n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    return n.isNull() || n.isContainerNode() ? kind : kind + " (" + Utf8.printable(n.toString())
        + ")";
  }

  /**
   * Refuses a field name or value that is not valid Unicode text (a lone surrogate), naming the
   * field: the check every reader of feed and plain records makes before taking a field.
   */
  static void checkText(String name, String value) {
    try {
      Utf8.check(name, "field name", name);
      Utf8.check(value, "value of field", name);
    } catch (IllegalArgumentException bad) {
      throw new RejectedLineException(bad.getMessage());
    }
  }
}
