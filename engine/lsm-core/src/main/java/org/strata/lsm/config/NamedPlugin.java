package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.strata.lsm.InvalidConfigurationException;

/**
 * A merge policy or merge scheduler chosen by name, with its string parameters: {@code {"name":
 * "binomial", "parameters": {"num-components": "7"}}}. In JSON a parameter value may be a string, a
 * number or a boolean (kept as its text); anything else is refused ({@link
 * PluginParameterDeserializer}).
 *
 * @param name the factory name, e.g. {@code constant}; required
 * @param parameters parameter values, sorted by name; unknown ones are rejected by the factory
 */
public record NamedPlugin(
    @JsonProperty("name") String name,
    // A null parameter value goes to the parameter deserializer too, which refuses it.
    @JsonProperty("parameters") @JsonDeserialize(contentUsing = PluginParameterDeserializer.class)
    @JsonSetter(contentNulls = Nulls.SET) Map<String, String> parameters) {

  public NamedPlugin {
    if (name == null) {
      throw InvalidConfigurationException.missing("name",
          "it names the merge policy or merge scheduler");
    }
    parameters = Collections.unmodifiableMap(new TreeMap<>(parameters == null ? Map.of()
        : parameters));
  }
}
