package org.strata.lsm.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.strata.lsm.InvalidConfigurationException;

/**
 * Overrides of configuration keys given on the command line as {@code key.path=value} (the {@code
 * --set} option of {@code two-phase} and {@code compare}), applied to the file's JSON tree before
 * it is bound, so an override is checked exactly as the same value in the file would be.
 *
 * <p>The path names object keys separated by dots; a number selects an array element ({@code
 * systems.1.compaction=universal}); missing objects on the way are created. The value is JSON when
 * it reads as a number, boolean, array or object ({@code running.utilizations=[0.5,0.9]}) and text
 * otherwise; it stays text where the file has text at that key, and under a plug-in's {@code
 * parameters}, whose values are always text ({@code dataset.merge-policy.parameters.size-ratio=5}).
 */
public final class ConfigOverrides {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ConfigOverrides() {}

  /** Applies every {@code key.path=value} of {@code sets} in order to {@code root}, in place. */
  public static void apply(JsonNode root, List<String> sets) {
    if (!root.isObject()) {
      throw InvalidConfigurationException.of("the configuration", root, "an object");
    }
    for (String set : sets) {
      apply((ObjectNode) root, set);
    }
  }

  private static void apply(ObjectNode root, String set) {
    int eq = set.indexOf('=');
    if (eq <= 0) {
      throw InvalidConfigurationException.of("--set", set, "key.path=value, e.g."
          + " dataset.memory-component.size=16MB");
    }
    String path = set.substring(0, eq).trim();
    String text = set.substring(eq + 1);
    String[] keys = path.split("\\.", -1);
    JsonNode node = root;
    for (int i = 0; i < keys.length - 1; i++) {
      node = child(node, keys, i, path);
    }
    String last = keys[keys.length - 1];
    if (last.isEmpty()) {
      throw InvalidConfigurationException.of("--set", set, "a key path without empty names");
    }
    boolean parameters = keys.length >= 2 && keys[keys.length - 2].equals("parameters");
    if (node instanceof ObjectNode o) {
      JsonNode old = o.get(last);
      o.set(last, value(text, parameters || (old != null && old.isTextual())));
    } else if (node instanceof ArrayNode a) {
      int index = index(last, a, path);
      JsonNode old = a.get(index);
      a.set(index, value(text, old != null && old.isTextual()));
    } else {
      throw notAContainer(path, keys, keys.length - 1, node);
    }
  }

  /** The node at {@code keys[i]} under {@code node}, creating an object where none is. */
  private static JsonNode child(JsonNode node, String[] keys, int i, String path) {
    String key = keys[i];
    if (key.isEmpty()) {
      throw InvalidConfigurationException.of("--set", path, "a key path without empty names");
    }
    if (node instanceof ObjectNode o) {
      JsonNode c = o.get(key);
      if (c == null || c.isNull()) {
        return o.putObject(key);
      }
      if (!c.isContainerNode()) {
        throw notAContainer(path, keys, i + 1, c);
      }
      return c;
    }
    if (node instanceof ArrayNode a) {
      JsonNode c = a.get(index(key, a, path));
      if (!c.isContainerNode()) {
        throw notAContainer(path, keys, i + 1, c);
      }
      return c;
    }
    throw notAContainer(path, keys, i, node);
  }

  private static int index(String key, ArrayNode a, String path) {
    try {
      int i = Integer.parseInt(key);
      if (i >= 0 && i < a.size()) {
        return i;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw InvalidConfigurationException.of("--set " + path, key, "an index of the array, 0 to "
        + (a.size() - 1));
  }

  private static InvalidConfigurationException notAContainer(String path, String[] keys, int n,
      JsonNode found) {
    return new InvalidConfigurationException("--set " + path + ": '"
        + String.join(".", List.of(keys).subList(0, n)) + "' is " + found
        + ", not an object or array, so it has no key '" + keys[n] + "'");
  }

  private static JsonNode value(String text, boolean asText) {
    if (asText) {
      return TextNode.valueOf(text);
    }
    try {
      JsonNode v = JSON.readTree(text);
      if (v != null && (v.isNumber() || v.isBoolean() || v.isContainerNode())) {
        return v;
      }
    } catch (JsonProcessingException e) {
      // not JSON: text
    }
    return TextNode.valueOf(text);
  }
}
