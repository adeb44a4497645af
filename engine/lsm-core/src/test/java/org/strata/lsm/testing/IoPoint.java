package org.strata.lsm.testing;

/**
 * A place in a workload where a file-system step can be failed: the steps {@code op} on files of
 * {@code kind} while the workload is in {@code phase} (e.g. the component writes of a flush, the
 * manifest rename of a merge, the log force of a write).
 */
public record IoPoint(String phase, FileOp op, FileKind kind) {
  @Override
  public String toString() {
    return phase + "/" + op + "/" + kind;
  }
}
