package org.strata.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;

/**
 * The one line a failed command prints. A full disk is named as such, with the file that could not
 * be written, and so is a file system that is read-only or a directory that is not writable; an
 * error that is not one of Strata's own messages (a bug, an I/O error) points to the log file
 * holding its stack trace.
 */
final class ErrorLine {
  private static final String NO_SPACE = "No space left on device";
  private static final String READ_ONLY = "Read-only file system";

  private ErrorLine() {}

  /**
   * The line (without the {@code error: } prefix) for {@code ex}; {@code logFile} has its trace.
   */
  static String of(Throwable ex, Path logFile) {
    String message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
    if (isDiskFull(ex)) {
      Path where = pathOf(ex);
      return "no space left on device: " + (where != null ? "cannot write " + where : message)
          + " (the full error is in " + logFile + ")";
    }
    FileSystemException denied = notWritable(ex);
    if (denied != null) {
      return (denied instanceof AccessDeniedException ? "cannot open " + denied.getFile()
          + ": permission denied" : "cannot write " + denied.getFile() + ": read-only file system")
          + "; every command but verify writes in a store or dataset directory (its LOCK, log and"
          + " LOG), so it must be writable; verify reads it without writing (the full error is in "
          + logFile + ")";
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

  /**
   * The first error in the cause chain of {@code ex} that says a file could not be written
   * because its file system is read-only (EROFS) or permission was denied (EACCES), or null.
   */
  static FileSystemException notWritable(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException a && a.getFile() != null) {
        return a;
      }
      if (t instanceof FileSystemException f && f.getFile() != null
          && READ_ONLY.equals(f.getReason())) {
        return f;
      }
    }
    return null;
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
