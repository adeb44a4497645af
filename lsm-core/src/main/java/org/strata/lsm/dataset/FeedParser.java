package org.strata.lsm.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.strata.lsm.Limits;

/**
 * Parses ingestion lines: one JSON object per line, {@code {"op":"upsert","key":"k1","fields":
 * {"field0":"a",...}}} or {@code {"op":"delete","key":"k1"}}; {@code op} defaults to {@code
 * upsert}. Anything else is rejected with a {@link RejectedLineException} whose message is the
 * reason, and nothing of the line is applied. A parser {@link #forRequests() for feed connections}
 * also accepts {@code "ack": true} on writes, {@code {"op":"get","key":"k1"}} and {@code
 * {"op":"scan","key":"k1","count":100}}. Thread-safe.
 */
public final class FeedParser {
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

  /** Parses one line; throws {@link RejectedLineException} naming what is wrong. */
  public FeedRecord parse(String line) {
    JsonNode root;
    try {
      root = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new RejectedLineException("not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new RejectedLineException("expected a JSON object like {\"op\":\"upsert\",\"key\":"
          + "\"k1\",\"fields\":{\"field0\":\"a\"}}, found " + describe(root));
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      boolean known = k.equals("op") || k.equals("key") || k.equals("fields")
          || (requests && (k.equals("ack") || k.equals("count")));
      if (!known) {
        throw new RejectedLineException("unknown key '" + k + "'; allowed: " + (requests
            ? "op, key, fields, ack, count" : "op, key, fields"));
      }
    }
    FeedRecord.Op op = FeedRecord.Op.UPSERT;
    JsonNode opNode = root.get("op");
    if (opNode != null) {
      String o = opNode.isTextual() ? opNode.asText() : null;
      if ("upsert".equals(o)) {
        op = FeedRecord.Op.UPSERT;
      } else if ("delete".equals(o)) {
        op = FeedRecord.Op.DELETE;
      } else if (requests && "get".equals(o)) {
        op = FeedRecord.Op.GET;
      } else if (requests && "scan".equals(o)) {
        op = FeedRecord.Op.SCAN;
      } else {
        throw new RejectedLineException("unknown op " + (o == null ? describe(opNode) : "'" + o
            + "'") + "; allowed: " + (requests ? "upsert, delete, get, scan" : "upsert, delete"));
      }
    }
    boolean ack = false;
    JsonNode ackNode = root.get("ack");
    if (ackNode != null) {
      if (!ackNode.isBoolean()) {
        throw new RejectedLineException("ack must be true or false, found " + describe(ackNode));
      }
      ack = ackNode.asBoolean();
    }
    int count = 0;
    JsonNode countNode = root.get("count");
    if (op == FeedRecord.Op.SCAN) {
      if (countNode == null || !countNode.canConvertToInt() || !countNode.isIntegralNumber()
          || countNode.asInt() < 1 || countNode.asInt() > MAX_SCAN) {
        throw new RejectedLineException("a scan needs count, an integer from 1 to " + MAX_SCAN
            + ", found " + describe(countNode));
      }
      count = countNode.asInt();
    } else if (countNode != null) {
      throw new RejectedLineException("count belongs to scans only");
    }
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
      Limits.checkKey(key.getBytes(StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new RejectedLineException(e.getMessage());
    }
    JsonNode fieldsNode = root.get("fields");
    if (op != FeedRecord.Op.UPSERT) {
      if (fieldsNode != null) {
        throw new RejectedLineException("a" + (op == FeedRecord.Op.DELETE ? " delete" : " " + op
            .name().toLowerCase(java.util.Locale.ROOT)) + " takes no fields");
      }
      return new FeedRecord(op, key, Map.of(), ack, count);
    }
    Map<String, String> fields = new LinkedHashMap<>();
    if (fieldsNode != null && !fieldsNode.isNull()) {
      if (!fieldsNode.isObject()) {
        throw new RejectedLineException("fields must be an object of field names to strings,"
            + " found " + describe(fieldsNode));
      }
      for (Map.Entry<String, JsonNode> e : fieldsNode.properties()) {
        if (!e.getValue().isTextual()) {
          throw new RejectedLineException("field '" + e.getKey() + "' is " + describe(e.getValue())
              + "; field values must be strings");
        }
        fields.put(e.getKey(), e.getValue().asText());
      }
    }
    return new FeedRecord(op, key, fields, ack, 0);
  }

  private static String describe(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    String kind = n.isNull() ? "null" : n.isTextual() ? "a string" : n.isNumber() ? "a number"
        : n.isBoolean() ? "a boolean" : n.isArray() ? "an array" : n.isObject() ? "an object"
        : n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    return n.isNull() || n.isContainerNode() ? kind : kind + " (" + n + ")";
  }
}
