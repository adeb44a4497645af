package org.strata.lsm;

/** An I/O operation (write, force, rename, read) failed; the cause holds the underlying error. */
public class StorageException extends StrataException {
  private static final long serialVersionUID = 1L;

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
