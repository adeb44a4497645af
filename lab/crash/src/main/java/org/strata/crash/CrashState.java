package org.strata.crash;

import java.util.ArrayList;
import java.util.List;

/**
 * What a store or dataset holds after a kill, for the next run and its check: one {@link
 * CrashModel} per partition (a store, and a dataset before its first check, have one for all).
 * Each partition of a dataset has its own log, so under {@code group} a kill leaves each partition
 * at its own point of the operation sequence; a partition's model may hold keys of other
 * partitions, which its checks ignore. The next run writes again from the operation after the
 * partition that is furthest behind, so a partition that is ahead gets operations it holds already,
 * again and in order: its model follows that exactly.
 */
public final class CrashState {
  private final List<CrashModel> partitions;

  private CrashState(List<CrashModel> partitions) {
    this.partitions = List.copyOf(partitions);
  }

  /** Nothing written yet. */
  public static CrashState empty() {
    return new CrashState(List.of(new CrashModel()));
  }

  /** The state with {@code models}, one per partition. */
  static CrashState of(List<CrashModel> models) {
    return new CrashState(new ArrayList<>(models));
  }

  /** The model of partition {@code p} (a copy, to change). */
  CrashModel partition(int p) {
    return partitions.get(partitions.size() == 1 ? 0 : p).copy();
  }

  /** Number of partitions the state follows (1 until a dataset's first check). */
  int partitionCount() {
    return partitions.size();
  }

  /** The last operation every partition holds: the next run writes from the one after it. */
  public long resumeAfter() {
    return partitions.stream().mapToLong(CrashModel::applied).min().orElse(0);
  }
}
