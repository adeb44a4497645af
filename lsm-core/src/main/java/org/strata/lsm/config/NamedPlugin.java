package org.strata.lsm.config;

import java.util.Map;
import java.util.TreeMap;

/**
 * A merge policy or merge scheduler chosen by name, with its string parameters.
 *
 * @param name the factory name, e.g. {@code constant}
 * @param parameters parameter values; unknown ones are rejected by the factory
 */
public record NamedPlugin(String name, Map<String, String> parameters) {
  public NamedPlugin {
    parameters = java.util.Collections.unmodifiableMap(new TreeMap<>(parameters));
  }
}
