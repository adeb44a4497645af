package org.strata.lsm;

/**
 * A configuration value, parameter or argument that Strata cannot accept. The message names the
 * key, the rejected value and what is allowed; it is raised before anything is written.
 *
 * <p>An error made by {@link #of} or {@link #missing} remembers its key apart from the rest of the
 * message, so that a reader that finds it deeper in a file can place it under the full path there
 * ({@link #withKey}).
 */
public class InvalidConfigurationException extends StrataException {
  private static final long serialVersionUID = 1L;

  /** The key the message starts with, or null when the message names none in that place. */
  private final String key;
  /** The message after the key. */
  private final String detail;

  public InvalidConfigurationException(String message) {
    super(message);
    this.key = null;
    this.detail = message;
  }

  private InvalidConfigurationException(String key, String detail) {
    super(key.isEmpty() ? detail.substring(2) : key + detail);
    this.key = key;
    this.detail = detail;
  }

  /**
   * Builds the standard message: {@code key: 'value' is not allowed; allowed: ...}. An empty key
   * stands for "where the value was found": a reader puts the path there with {@link #withKey}.
   */
  public static InvalidConfigurationException of(String key, Object value, String allowed) {
    return new InvalidConfigurationException(key,
        ": '" + value + "' is not allowed; allowed: " + allowed);
  }

  /** {@code key is missing; why}: a required key that was not given. */
  public static InvalidConfigurationException missing(String key, String why) {
    return new InvalidConfigurationException(key, " is missing; " + why);
  }

  /** {@code key problem}, e.g. {@code secondary-indexes.field is not valid Unicode text}. */
  public static InvalidConfigurationException keyed(String key, String problem) {
    return new InvalidConfigurationException(key, " " + problem);
  }

  /** The key this error names first, or null if its message has none in that place. */
  public String key() {
    return key;
  }

  /**
   * The same error naming {@code newKey} instead of its key; an unkeyed error is returned as is.
   */
  public InvalidConfigurationException withKey(String newKey) {
    return key == null ? this : new InvalidConfigurationException(newKey, detail);
  }
}
