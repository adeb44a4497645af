package org.strata.reproduce;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.io.IOException;

/** Reads a paper's configuration into its record, refusing unknown, missing and bad fields. */
public final class PaperConfigs {
  private static final ObjectMapper STRICT = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private PaperConfigs() {}

  /**
   * {@code config} as a {@code type}.
   *
   * @throws IllegalArgumentException naming the paper and the field that is unknown, missing or
   *     invalid
   */
  public static <T> T read(JsonNode config, Class<T> type, String paper) {
    unknownFields(config, type, paper, "");
    try {
      return STRICT.treeToValue(config, type);
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      String msg = String.valueOf(cause.getMessage());
      if (msg.startsWith(paper + ": ")) {
        msg = msg.substring(paper.length() + 2);
      }
      throw new IllegalArgumentException(paper + " configuration: " + msg, e);
    } catch (UnrecognizedPropertyException e) {
      throw new IllegalArgumentException(paper + " configuration: unknown field '"
          + e.getPropertyName() + "'" + where(e) + "; the fields are " + e.getKnownPropertyIds(),
          e);
    } catch (IOException e) {
      String msg = e instanceof com.fasterxml.jackson.core.JsonProcessingException j
          ? j.getOriginalMessage() : e.getMessage();
      throw new IllegalArgumentException(paper + " configuration: " + msg
          + (e instanceof com.fasterxml.jackson.databind.JsonMappingException m ? where(m) : ""),
          e);
    }
  }

  /** Refuses a field no component of the record {@code type} (or of its nested records) has. */
  private static void unknownFields(JsonNode node, Class<?> type, String paper, String path) {
    if (!type.isRecord() || !node.isObject()) {
      return;
    }
    java.util.Map<String, java.lang.reflect.RecordComponent> known =
        new java.util.LinkedHashMap<>();
    for (java.lang.reflect.RecordComponent c : type.getRecordComponents()) {
      known.put(c.getName(), c);
    }
    for (var field : node.properties()) {
      java.lang.reflect.RecordComponent c = known.get(field.getKey());
      if (c == null) {
        throw new IllegalArgumentException(paper + " configuration: unknown field '" + path
            + field.getKey() + "'; the fields" + (path.isEmpty() ? "" : " of " + path
            .substring(0, path.length() - 1)) + " are " + String.join(", ", known.keySet()));
      }
      unknownFields(field.getValue(), c.getType(), paper, path + field.getKey() + ".");
    }
  }

  private static String where(com.fasterxml.jackson.databind.JsonMappingException e) {
    String path = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
        : "[" + r.getIndex() + "]").reduce((a, b) -> a + "." + b).orElse("");
    return path.isEmpty() ? "" : " (at " + path + ")";
  }
}
