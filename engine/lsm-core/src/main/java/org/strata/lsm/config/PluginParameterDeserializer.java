package org.strata.lsm.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.util.AccessPattern;
import java.io.IOException;
import org.strata.lsm.InvalidConfigurationException;

/**
 * Reads one plug-in parameter value: a string, a number or a boolean becomes its text ({@code 7}
 * and {@code "7"} are the same parameter); null, an object or an array is refused, wherever a
 * plug-in appears (store, dataset, two-phase and comparison files alike).
 */
final class PluginParameterDeserializer extends StdDeserializer<String> {
  private static final long serialVersionUID = 1L;
  static final String ALLOWED = "a string, number or boolean";

  PluginParameterDeserializer() {
    super(String.class);
  }

  @Override
  public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    return switch (p.currentToken()) {
      case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE ->
          p.getText();
      default -> throw InvalidConfigurationException.of("", ctxt.readTree(p), ALLOWED);
    };
  }

  @Override
  public String getNullValue(DeserializationContext ctxt) {
    throw InvalidConfigurationException.of("", "null", ALLOWED);
  }

  @Override
  public AccessPattern getNullAccessPattern() {
    return AccessPattern.DYNAMIC;
  }
}
