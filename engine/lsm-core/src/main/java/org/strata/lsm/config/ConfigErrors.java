package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.strata.lsm.InvalidConfigurationException;

/**
 * Turns Jackson's errors into the messages Strata has always given: the key as a dotted path, the
 * value as written, and what is allowed there.
 *
 * <ul>
 *   <li>an unknown key: {@code unknown configuration key 'io.page-sise'; allowed keys in io:
 *       force-bytes, page-size, write-rate-limit};
 *   <li>a value a record's constructor refuses: that record's message, its key placed under the
 *       path where the record was read ({@link ConfigPath#place});
 *   <li>a value of the wrong type, or a null where none is allowed: {@code key: 'value' is not
 *       allowed; allowed: ...}, what is allowed following from the Java type (the names of a mode,
 *       the keys of a section, an integer, a string, ...).
 * </ul>
 */
final class ConfigErrors {
  private ConfigErrors() {}

  /** A JSON syntax error or a key given twice, naming {@code source}, the line and the column. */
  static InvalidConfigurationException syntax(JsonProcessingException e, String source) {
    String what = e.getOriginalMessage();
    String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr()
        + ", column " + e.getLocation().getColumnNr();
    if (what != null && what.startsWith("Duplicate field ")) {
      return new InvalidConfigurationException(source + ": the key "
          + what.substring("Duplicate field ".length()) + " appears twice in one object ("
          + where + "); give each key once");
    }
    return new InvalidConfigurationException(source + " is not valid JSON: " + what + " ("
        + where + ")");
  }

  /**
   * The error for {@code e}, raised while binding {@code root}; {@code prefix} is the key of
   * {@code root} in an enclosing file ({@code systems[1]}), or empty.
   */
  static InvalidConfigurationException binding(ObjectMapper mapper, JsonMappingException e,
      JsonNode root, String source, String prefix) {
    List<JsonMappingException.Reference> path = e.getPath();
    String at = ConfigPath.join(prefix, ConfigPath.of(path));
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidConfigurationException refused) {
        return refused.key() == null ? refused : refused.withKey(ConfigPath.place(at,
            refused.key()));
      }
    }
    if (e instanceof UnrecognizedPropertyException u) {
      String parent = ConfigPath.join(prefix, ConfigPath.of(path.subList(0, path.size() - 1)));
      Set<String> known = new TreeSet<>();
      u.getKnownPropertyIds().forEach(k -> known.add(k.toString()));
      return new InvalidConfigurationException("unknown configuration key '" + at + "'; allowed "
          + (parent.isEmpty() ? "top-level keys" : "keys in " + parent) + ": "
          + String.join(", ", known));
    }
    if (e instanceof InvalidTypeIdException t) {
      Class<?> base = t.getBaseType().getRawClass();
      JsonTypeInfo info = base.getAnnotation(JsonTypeInfo.class);
      List<String> names = new ArrayList<>();
      JsonSubTypes subtypes = base.getAnnotation(JsonSubTypes.class);
      if (subtypes != null) {
        for (JsonSubTypes.Type s : subtypes.value()) {
          names.add(s.name());
        }
      }
      return InvalidConfigurationException.of(ConfigPath.join(at, info == null ? "type"
          : info.property()), t.getTypeId(), String.join(", ", names));
    }
    String value = display(valueAt(root, path));
    if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
      return InvalidConfigurationException.of(at, value, allowed(mapper,
          mapper.constructType(m.getTargetType())));
    }
    return new InvalidConfigurationException(source + ": " + (at.isEmpty() ? ""
        : at + ": '" + value + "' is not allowed: ") + e.getOriginalMessage());
  }

  /** What a value of {@code type} may be, in the words of docs/configuration.md. */
  static String allowed(ObjectMapper mapper, JavaType type) {
    Class<?> c = type.getRawClass();
    if (c.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object constant : c.getEnumConstants()) {
        names.add(mapper.convertValue(constant, String.class));
      }
      return String.join(", ", names);
    }
    if (c == String.class) {
      return "a string";
    }
    if (c == Boolean.class || c == boolean.class) {
      return "true or false";
    }
    if (c == Integer.class || c == int.class || c == Long.class || c == long.class
        || c == BigInteger.class) {
      return "an integer";
    }
    if (Number.class.isAssignableFrom(c) || c == double.class || c == float.class
        || c == BigDecimal.class) {
      return "a number";
    }
    if (Collection.class.isAssignableFrom(c) || c.isArray()) {
      return "an array";
    }
    if (Map.class.isAssignableFrom(c)) {
      return "an object";
    }
    if (c.isRecord()) {
      return "an object with keys " + String.join(", ", KnownKeysDeserializer.keysOf(
          mapper.getDeserializationConfig(), mapper.getDeserializationConfig().introspect(type)));
    }
    return "a value of type " + c.getSimpleName();
  }

  /** The node at {@code path} under {@code root}, or null. */
  private static JsonNode valueAt(JsonNode root, List<JsonMappingException.Reference> path) {
    JsonNode n = root;
    for (JsonMappingException.Reference r : path) {
      if (n == null) {
        return null;
      }
      n = r.getFieldName() != null ? n.get(r.getFieldName())
          : r.getIndex() >= 0 ? n.get(r.getIndex()) : n;
    }
    return n;
  }

  /** A value as the user wrote it: text without quotes, anything else as JSON. */
  private static String display(JsonNode value) {
    return value == null ? "null" : value.isTextual() ? value.asText() : value.toString();
  }
}
