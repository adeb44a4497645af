package org.strata.lsm.spi;

/**
 * The operations an index has served since it was opened, as {@link
 * MergeContext#operationCounts()} reports them: a policy that adapts to its workload reads two of
 * them and takes the difference. Counts only grow while the index is open and start from 0 when
 * it opens; recovery's replay of the log is not counted.
 *
 * @param updates writes applied to the index (puts and deletes, each entry of a batch once)
 * @param zeroResultLookups point lookups that found no live value (absent or deleted keys)
 * @param existingLookups point lookups that found a value
 */
public record OperationCounts(long updates, long zeroResultLookups, long existingLookups) {
  /** No operations: what a context that does not count reports. */
  public static final OperationCounts NONE = new OperationCounts(0, 0, 0);

  public OperationCounts {
    if (updates < 0 || zeroResultLookups < 0 || existingLookups < 0) {
      throw new IllegalArgumentException("operation counts must be non-negative");
    }
  }

  /** The operations of this count that {@code earlier} had not seen yet, each at least 0. */
  public OperationCounts since(OperationCounts earlier) {
    return new OperationCounts(Math.max(0, updates - earlier.updates),
        Math.max(0, zeroResultLookups - earlier.zeroResultLookups),
        Math.max(0, existingLookups - earlier.existingLookups));
  }
}
