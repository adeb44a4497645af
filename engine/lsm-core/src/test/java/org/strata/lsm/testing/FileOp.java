package org.strata.lsm.testing;

/** The kinds of file-system step a {@link org.strata.lsm.io.FileIo} performs, for injection. */
public enum FileOp {
  /** {@code FileIo.create}: a new file for writing. */
  CREATE,
  /** {@code FileIo.append}: an existing file reopened for appends. */
  APPEND,
  /** {@code WritableFile.write}: may be failed outright or short-written. */
  WRITE,
  /** {@code WritableFile.force}: fsync of a file. */
  FORCE,
  /** {@code FileIo.rename}: the atomic rename that publishes a file. */
  RENAME,
  /** {@code FileIo.forceDirectory}: fsync of a directory (makes a creation or rename durable). */
  FORCE_DIRECTORY,
  /** {@code FileIo.delete}. */
  DELETE,
  /** {@code FileIo.truncate}: recovery cutting a torn log tail. */
  TRUNCATE,
  /** {@code FileIo.openForRead}: a disk component opened. */
  OPEN_READ,
  /** {@code ReadableFile.read}: a positional read of a component page. */
  READ,
  /** {@code FileIo.readAll}: a whole log segment, manifest or configuration read. */
  READ_ALL;

  /** True for the steps that read and change nothing. */
  public boolean isRead() {
    return this == OPEN_READ || this == READ || this == READ_ALL;
  }
}
