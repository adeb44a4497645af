package org.strata.peers;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ConfigMapper;
import org.strata.twophase.LookupConfig;
import org.strata.twophase.TwoPhaseConfig;
import org.strata.twophase.TwoPhaseConfigJson;

/**
 * Reads a comparison configuration: a two-phase configuration (docs/two-phase.md) with a {@code
 * systems} list, bound with Jackson onto {@link SystemSpec} records. Unknown keys, unknown system
 * names and bad values fail naming the key, the value and what is allowed; so does a label used
 * twice.
 */
public final class CompareConfigJson {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private CompareConfigJson() {}

  /** Reads a file; its name without {@code .json} is the default name. */
  public static CompareConfig read(Path file) {
    String n = file.getFileName().toString();
    return parse(ConfigMapper.readText(file), file.toString(),
        n.endsWith(".json") ? n.substring(0, n.length() - 5) : n);
  }

  /** Parses configuration text. */
  public static CompareConfig parse(String json, String source, String defaultName) {
    JsonNode root = ConfigMapper.readTree(json, source);
    if (!root.isObject()) {
      throw InvalidConfigurationException.of("the configuration", root, "an object");
    }
    JsonNode systems = root.get("systems");
    if (systems == null || !systems.isArray() || systems.isEmpty()) {
      throw InvalidConfigurationException.of("systems", systems, "a non-empty array of"
          + " {\"name\": one of " + String.join(", ", SystemSpec.NAMES) + ", ...}");
    }
    ObjectNode rest = ((ObjectNode) root).deepCopy();
    rest.remove("systems");
    LookupConfig lookup = lookup(rest.remove("lookup"));
    TwoPhaseConfig twoPhase = TwoPhaseConfigJson.bind(rest, source, defaultName);
    List<SystemSpec> specs = new ArrayList<>();
    Set<String> labels = new HashSet<>();
    for (int i = 0; i < systems.size(); i++) {
      String key = "systems[" + i + "]";
      SystemSpec s = bind(key, systems.get(i));
      // Build the targets now, so a bad dataset override or policy fails before anything runs.
      for (SystemSpec.Run r : wrap(key, () -> s.targets(twoPhase, true))) {
        if (!labels.add(r.target().label())) {
          throw InvalidConfigurationException.of(key + ".label", r.target().label(),
              "a label no other system has (labels name the output directories)");
        }
      }
      wrap(key, () -> s.targets(twoPhase, false));
      specs.add(s);
    }
    return new CompareConfig(twoPhase, specs, lookup);
  }

  /** Binds the {@code lookup} section (null: the defaults). */
  private static LookupConfig lookup(JsonNode node) {
    if (node == null || node.isNull()) {
      return LookupConfig.defaults();
    }
    if (!node.isObject()) {
      throw InvalidConfigurationException.of("lookup", node, "an object with duration-seconds,"
          + " warmup-seconds and threads");
    }
    try {
      return MAPPER.treeToValue(node, LookupConfig.class);
    } catch (UnrecognizedPropertyException e) {
      throw new InvalidConfigurationException("unknown configuration key 'lookup."
          + e.getPropertyName() + "'; allowed keys: duration-seconds, threads, warmup-seconds");
    } catch (ValueInstantiationException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new InvalidConfigurationException(c.getMessage());
    } catch (JsonProcessingException e) {
      throw new InvalidConfigurationException("lookup."
          + (e instanceof JsonMappingException m ? path(m) : "")
          + ": a value of the wrong type (" + e.getOriginalMessage() + ")");
    }
  }

  private static SystemSpec bind(String key, JsonNode node) {
    if (!node.isObject() || !node.has("name")) {
      throw InvalidConfigurationException.of(key, node, "an object with a \"name\": one of "
          + String.join(", ", SystemSpec.NAMES));
    }
    try {
      return MAPPER.treeToValue(node, SystemSpec.class);
    } catch (InvalidTypeIdException e) {
      throw InvalidConfigurationException.of(key + ".name", node.get("name"),
          String.join(", ", SystemSpec.NAMES));
    } catch (UnrecognizedPropertyException e) {
      Set<String> known = new TreeSet<>();
      e.getKnownPropertyIds().forEach(p -> known.add(p.toString()));
      known.add("name");
      throw new InvalidConfigurationException("unknown configuration key '" + key + "."
          + e.getPropertyName() + "'; allowed keys in a " + node.get("name").asText()
          + " entry: " + String.join(", ", known));
    } catch (ValueInstantiationException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new InvalidConfigurationException(key + "." + c.getMessage());
    } catch (MismatchedInputException e) {
      throw new InvalidConfigurationException(key + "." + path(e) + ": a value of the wrong"
          + " type (" + e.getOriginalMessage() + ")");
    } catch (JsonProcessingException e) {
      throw new InvalidConfigurationException(key + ": " + e.getOriginalMessage());
    }
  }

  private static String path(JsonMappingException e) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
      } else {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private interface Build<T> {
    T get();
  }

  private static <T> T wrap(String key, Build<T> b) {
    try {
      return b.get();
    } catch (InvalidConfigurationException e) {
      throw new InvalidConfigurationException(key + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationException(key + "." + e.getMessage());
    }
  }
}
