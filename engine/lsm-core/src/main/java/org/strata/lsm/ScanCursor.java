package org.strata.lsm;

import java.util.Iterator;

/**
 * The live keys of a range in ascending order. It holds a snapshot of the disk components, which
 * stay readable until {@link #close()}; memory components are read live. Close it when done.
 */
public interface ScanCursor extends Iterator<KeyValue>, AutoCloseable {
  @Override
  void close();
}
