package org.strata.lsm;

/**
 * Base of every error Strata raises on purpose; its message says what went wrong and what to do.
 */
public class StrataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StrataException(String message) {
    super(message);
  }

  public StrataException(String message, Throwable cause) {
    super(message, cause);
  }
}
