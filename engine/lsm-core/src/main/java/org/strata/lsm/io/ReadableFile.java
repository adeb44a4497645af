package org.strata.lsm.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file opened for positional reads: what a disk component reads its pages through. Safe for
 * concurrent reads at different positions.
 */
public interface ReadableFile extends Closeable {
  /**
   * Reads bytes into {@code dst} starting at file position {@code position}.
   *
   * @return the number of bytes read, or -1 at the end of the file
   */
  int read(ByteBuffer dst, long position) throws IOException;

  /** The file's current length in bytes. */
  long size() throws IOException;

  /**
   * False once the file was closed, by {@link #close()} or because a reader was interrupted (a
   * {@link java.nio.channels.FileChannel} closes itself for everyone then).
   */
  boolean isOpen();
}
