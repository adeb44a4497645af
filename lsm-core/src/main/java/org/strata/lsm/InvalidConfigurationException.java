package org.strata.lsm;

/**
 * A configuration value, parameter or argument that Strata cannot accept. The message names the key,
 * the rejected value and what is allowed; it is raised before anything is written.
 */
public class InvalidConfigurationException extends StrataException {
  private static final long serialVersionUID = 1L;

  public InvalidConfigurationException(String message) {
    super(message);
  }

  /** Builds the standard message: {@code key: 'value' is not allowed; allowed: ...}. */
  public static InvalidConfigurationException of(String key, Object value, String allowed) {
    return new InvalidConfigurationException(key + ": '" + value + "' is not allowed; allowed: " + allowed);
  }
}
