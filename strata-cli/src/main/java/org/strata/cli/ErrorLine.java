package org.strata.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;

/**
 * The one line a failed command prints. A full disk is named as such, with the file that could not
 * be written; an error that is not one of Strata's own messages (a bug, an I/O error) points to the
 * log file holding its stack trace.
 */
final class ErrorLine {
  private static final String NO_SPACE = "No space left on device";

  private ErrorLine() {}

  /** The line (without the {@code error: } prefix) for {@code ex}; {@code logFile} has its trace. */
  static String of(Throwable ex, Path logFile) {
    String message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
    if (isDiskFull(ex)) {
      Path where = pathOf(ex);
      return "no space left on device: " + (where != null ? "cannot write " + where : message)
          + " (the full error is in " + logFile + ")";
    }
    if (ex instanceof StrataException && !(ex instanceof StorageException)) {
      return message; // Strata's own refusal: the message says what to do
    }
    return message + " (the full error is in " + logFile + ")";
  }

  /** True if an I/O error in the cause chain of {@code ex} is a full device. */
  static boolean isDiskFull(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof IOException && t.getMessage() != null
          && t.getMessage().contains(NO_SPACE)) {
        return true;
      }
    }
    return false;
  }

  /** The file of the first storage error in the cause chain that names one, or null. */
  private static Path pathOf(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof StorageException s && s.path() != null) {
        return s.path();
      }
    }
    return null;
  }
}
