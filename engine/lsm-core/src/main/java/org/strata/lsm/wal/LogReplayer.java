package org.strata.lsm.wal;

/** Receives the operations recovered from the log, in sequence-number order. */
@FunctionalInterface
public interface LogReplayer {
  void apply(long lsn, LogOp op);
}
