package org.strata.lsm.spi;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.strata.lsm.InvalidConfigurationException;

/**
 * Typed, validated access to a policy's or scheduler's string parameters. Every error names the
 * parameter as {@code <owner>.parameters.<name>}, the rejected value and what is allowed.
 */
public final class Parameters {
  private final String owner;
  private final Map<String, String> values;

  private Parameters(String owner, Map<String, String> values) {
    this.owner = owner;
    this.values = values;
  }

  /**
   * Checks that every given name is in {@code allowed}.
   *
   * @param owner how errors name the owner, e.g. {@code merge-policy 'constant'}
   */
  public static Parameters of(String owner, Map<String, String> values, Set<String> allowed) {
    for (String k : values.keySet()) {
      if (!allowed.contains(k)) {
        throw new InvalidConfigurationException(
            owner + ": unknown parameter '" + k + "'; allowed: "
                + (allowed.isEmpty() ? "none" : String.join(", ", new TreeSet<>(allowed))));
      }
    }
    return new Parameters(owner, Map.copyOf(values));
  }

  /** An integer in [min, max], or {@code dflt} when absent. */
  public int intValue(String name, int dflt, int min, int max) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      int i = Integer.parseInt(v.trim());
      if (i >= min && i <= max) {
        return i;
      }
    } catch (NumberFormatException e) {
      // fall through to the error below
    }
    throw InvalidConfigurationException.of(
        owner + " parameter " + name, v, "an integer from " + min + " to " + max);
  }

  /** A decimal number in [min, max], or {@code dflt} when absent. */
  public double doubleValue(String name, double dflt, double min, double max) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (d >= min && d <= max) {
        return d;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw InvalidConfigurationException.of(
        owner + " parameter " + name, v, "a number from " + min + " to " + max);
  }

  /** A number greater than 0 and at most {@code max}, or {@code dflt} when absent. */
  public double positiveDouble(String name, double dflt, double max) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (d > 0 && d <= max) {
        return d;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw InvalidConfigurationException.of(owner + " parameter " + name, v,
        "a number greater than 0 and at most " + max);
  }

  /** {@code true} or {@code false}, or {@code dflt} when absent. */
  public boolean booleanValue(String name, boolean dflt) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    if (v.trim().equalsIgnoreCase("true")) {
      return true;
    }
    if (v.trim().equalsIgnoreCase("false")) {
      return false;
    }
    throw InvalidConfigurationException.of(owner + " parameter " + name, v, "true or false");
  }

  /** One of {@code allowed}, or {@code dflt} when absent. */
  public String choice(String name, String dflt, Set<String> allowed) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    if (allowed.contains(v.trim())) {
      return v.trim();
    }
    throw InvalidConfigurationException.of(
        owner + " parameter " + name, v, String.join(", ", new TreeSet<>(allowed)));
  }
}
