package org.strata.lsm.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** An append-only file being written: the unit a flush, merge or log writes to. */
public interface WritableFile extends Closeable {
  /** Writes all remaining bytes of {@code buf}. */
  void write(ByteBuffer buf) throws IOException;

  /** Forces written bytes (and the file's length) to stable storage. */
  void force() throws IOException;

  /** Bytes written so far. */
  long size() throws IOException;
}
