package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.util.List;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.io.FileIo;

/**
 * Reads and writes every configuration file (store, dataset, two-phase, comparison) by binding
 * JSON onto the configuration records with Jackson. What it accepts is what the records declare,
 * and no more:
 *
 * <ul>
 *   <li>an unknown key, a key given twice in one object, invalid JSON or anything after the value
 *       fails;
 *   <li>no silent coercions: a string is not a number ({@code "2"} is not a count), a number is not
 *       a string, a fraction is not an integer, a number is not a mode; sizes ({@link ByteSize})
 *       and plug-in parameters ({@link NamedPlugin}) say themselves what they accept;
 *   <li>a JSON null means "the default" for a section, a size and a list, and fails for anything
 *       else unless the property allows it;
 *   <li>records apply their defaults and check their ranges in their constructors.
 * </ul>
 *
 * <p>Every failure is an {@link InvalidConfigurationException} naming the key as a dotted path, the
 * value and what is allowed ({@link ConfigErrors}). Nothing is written on a refused input.
 */
public final class ConfigMapper {
  /**
   * The injection id of a configuration's default name: the file name without {@code .json}. A
   * record takes it with {@code @JacksonInject(value = DEFAULT_NAME, useInput = OptBoolean.TRUE)}.
   */
  public static final String DEFAULT_NAME = "strata.config.default-name";

  // Configured once here and never changed: an ObjectMapper is thread-safe once configured.
  private static final ObjectMapper MAPPER = build();

  private ConfigMapper() {}

  private static ObjectMapper build() {
    SimpleModule rules = new SimpleModule("strata-config");
    rules.setDeserializerModifier(new ConfigDeserializerModifier());
    ObjectMapper m = JsonMapper.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .enable(SerializationFeature.INDENT_OUTPUT)
        .defaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL))
        .addModule(rules)
        .build();
    m.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    return m;
  }

  /**
   * Reads the configuration file {@code file} as a {@code type}; the file name without {@code
   * .json} is its default name. Every error names the file (a damaged saved configuration, e.g.
   * a key with a flipped byte, must say which file to look at).
   */
  public static <T> T read(Path file, Class<T> type) {
    return read(file, type, FileIo.standard());
  }

  /** As {@link #read(Path, Class)}, reading the file through {@code io}. */
  public static <T> T read(Path file, Class<T> type, FileIo io) {
    String n = file.getFileName().toString();
    String text = readText(file, io);
    try {
      return parse(text, file.toString(),
          n.endsWith(".json") ? n.substring(0, n.length() - 5) : n, type);
    } catch (InvalidConfigurationException e) {
      if (String.valueOf(e.getMessage()).contains(file.toString())) {
        throw e;
      }
      InvalidConfigurationException named =
          new InvalidConfigurationException(file + ": " + e.getMessage());
      named.initCause(e);
      throw named;
    }
  }

  /** Parses configuration text; {@code source} names it in errors and is its default name. */
  public static <T> T parse(String json, String source, Class<T> type) {
    return parse(json, source, source, type);
  }

  /** Parses configuration text; {@code source} names it in errors. */
  public static <T> T parse(String json, String source, String defaultName, Class<T> type) {
    return bind(readTree(json, source), source, defaultName, "", type);
  }

  /**
   * Binds a parsed configuration (or a part of one) onto {@code type}.
   *
   * @param root the JSON, an object
   * @param source names the file in errors
   * @param defaultName the name a configuration takes if it gives none
   * @param prefix the key of {@code root} in its file, put in front of every key an error names
   *     ({@code systems[1]}); empty at the top
   */
  public static <T> T bind(JsonNode root, String source, String defaultName, String prefix,
      Class<T> type) {
    if (root == null || !root.isObject()) {
      throw new InvalidConfigurationException((prefix.isEmpty() ? source : prefix)
          + ": the configuration must be a JSON object");
    }
    try {
      return MAPPER.readerFor(type)
          .with(new InjectableValues.Std().addValue(DEFAULT_NAME, defaultName))
          .readValue(root);
    } catch (JsonMappingException e) {
      InvalidConfigurationException range = rangeOf(e, root, source, defaultName, prefix, type);
      throw range != null ? range : ConfigErrors.binding(MAPPER, e, root, source, prefix);
    } catch (IOException e) {
      throw new InvalidConfigurationException(source + ": " + e.getMessage());
    }
  }

  /**
   * For a number too large for its setting's Java type (Jackson's "out of range of int"), the
   * setting's own allowed range: the same configuration is bound once more with that number
   * replaced by the largest value the type holds, and the range check that refuses it says what
   * is allowed; the error then shows the number as given. Null if the error is another, or the
   * second binding does not fail on that key.
   */
  private static <T> InvalidConfigurationException rangeOf(JsonMappingException e, JsonNode root,
      String source, String defaultName, String prefix, Class<T> type) {
    com.fasterxml.jackson.core.exc.InputCoercionException coercion = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof com.fasterxml.jackson.core.exc.InputCoercionException c) {
        coercion = c;
      }
    }
    if (coercion == null || e.getPath().isEmpty()) {
      return null;
    }
    JsonNode copy = root.deepCopy();
    JsonNode parent = copy;
    List<JsonMappingException.Reference> path = e.getPath();
    for (int i = 0; i < path.size() - 1 && parent != null; i++) {
      JsonMappingException.Reference r = path.get(i);
      parent = r.getFieldName() != null ? parent.get(r.getFieldName()) : parent.get(r.getIndex());
    }
    JsonMappingException.Reference last = path.get(path.size() - 1);
    if (!(parent instanceof com.fasterxml.jackson.databind.node.ObjectNode o)
        || last.getFieldName() == null || !o.has(last.getFieldName())) {
      return null;
    }
    String given = o.get(last.getFieldName()).asText();
    boolean negative = given.startsWith("-");
    boolean isInt = coercion.getTargetType() == Integer.TYPE
        || coercion.getTargetType() == Integer.class;
    long replacement = isInt ? (negative ? Integer.MIN_VALUE : Integer.MAX_VALUE)
        : (negative ? Long.MIN_VALUE : Long.MAX_VALUE);
    o.put(last.getFieldName(), replacement);
    try {
      MAPPER.readerFor(type)
          .with(new InjectableValues.Std().addValue(DEFAULT_NAME, defaultName))
          .readValue(copy);
    } catch (JsonMappingException again) {
      for (Throwable t = again; t != null; t = t.getCause()) {
        if (t instanceof InvalidConfigurationException refused && refused.getMessage() != null
            && refused.getMessage().contains(Long.toString(replacement))) {
          InvalidConfigurationException named = ConfigErrors.binding(MAPPER, again, copy, source,
              prefix);
          return new InvalidConfigurationException(String.valueOf(named.getMessage())
              .replace(Long.toString(replacement), given));
        }
      }
      return null;
    } catch (IOException | RuntimeException other) {
      return null;
    }
    return null;
  }

  /**
   * Parses JSON text into a tree; invalid JSON, anything after the value, or a key that appears
   * twice in one object fails naming the line and column (and the key).
   */
  public static JsonNode readTree(String json, String source) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw ConfigErrors.syntax(e, source);
    }
  }

  /** The text of a configuration file; a missing or unreadable file fails clearly. */
  public static String readText(Path file) {
    return readText(file, FileIo.standard());
  }

  /**
   * As {@link #readText(Path)}, reading the file through {@code io}; bytes that are not UTF-8
   * fail the read, as {@link Files#readString} does.
   */
  public static String readText(Path file, FileIo io) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(io.readAll(file)))
          .toString();
    } catch (NoSuchFileException e) {
      throw new InvalidConfigurationException("config file " + file + " does not exist");
    } catch (IOException e) {
      throw new InvalidConfigurationException("config file " + file + " cannot be read: " + e);
    }
  }

  /** A configuration as indented JSON ending in a newline, in the shape {@link #parse} reads. */
  public static String toJson(Object config) {
    try {
      return MAPPER.writeValueAsString(config) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + config, e);
    }
  }

  /** A configuration as a JSON tree, in the shape {@link #bind} reads. */
  public static ObjectNode toTree(Object config) {
    return MAPPER.valueToTree(config);
  }
}
