package org.strata.asterixdb;

/**
 * A port that AsterixDB fixes is taken on this host, so the cluster cannot start; thrown before
 * anything starts, naming the port and what AsterixDB uses it for.
 */
public final class PortInUseException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final int port;

  /**
   * @param port the port
   * @param purpose what the cluster uses it for
   * @param cause the failed bind
   */
  public PortInUseException(int port, String purpose, Throwable cause) {
    super("port " + port + " (" + purpose + ") is in use on this host; stop what holds it"
        + " (another AsterixDB cluster?) or set that key to a free port in the --config file",
        cause);
    this.port = port;
  }

  /** The port that is taken. */
  public int port() {
    return port;
  }
}
