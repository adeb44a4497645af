package org.strata.lsm.io;

import org.apache.logging.log4j.Logger;

/**
 * Logs a background operation that fails and is retried (a flush, a merge, the group commit) so
 * that a lasting fault such as a full disk does not fill the log with one stack trace per retry:
 * the first failure, and a failure of a different kind, is logged at ERROR with its stack trace;
 * repeats of the same kind are only counted (DEBUG); the first success after failures
 * is logged at WARN with the count. Thread-safe.
 */
public final class RepeatedFailures {
  private final Logger log;
  private final String operation;
  private String lastMessage;
  private long failures;

  /** @param operation what fails, as a message subject, e.g. {@code "flush of /data/s"} */
  public RepeatedFailures(Logger log, String operation) {
    this.log = log;
    this.operation = operation;
  }

  /**
   * Records a failure; {@code consequence} says what happens now (e.g. "it will be retried").
   *
   * @return the number of failures since the last success, this one included
   */
  public synchronized long failed(Throwable e, String consequence) {
    failures++;
    String message = kind(e);
    if (failures == 1 || !message.equals(lastMessage)) {
      log.error("{} failed; {}", operation, consequence, e);
    } else {
      log.debug("{} failed again ({} failures in a row): {}", operation, failures, e.toString());
    }
    lastMessage = message;
    return failures;
  }

  /**
   * What makes two failures "the same": the root cause's type and message with numbers blanked
   * (a retry writes a file with the next number, which the message names).
   */
  private static String kind(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getName() + ": " + String.valueOf(root.getMessage())
        .replaceAll("[0-9]+", "#");
  }

  /** Records a success: if failures came before, says how many. */
  public synchronized void succeeded() {
    if (failures > 0) {
      log.warn("{} succeeded after {} failed attempt(s)", operation, failures);
    }
    failures = 0;
    lastMessage = null;
  }

  /** Failures since the last success. */
  public synchronized long failures() {
    return failures;
  }
}
