package org.strata.lsm.spi;

import java.util.List;

/**
 * One sorted run of an index as a merge policy sees it: one or more disk components with disjoint
 * key ranges, assigned to a level. Stack-based policies use one component per run and ignore
 * levels.
 *
 * @param runId identifier, unique within the index for its lifetime
 * @param level level number the policy assigned (0 for flushed runs)
 * @param components the run's components in key order
 * @param merging whether the run is an input of a scheduled or running merge
 */
public record RunInfo(long runId, int level, List<ComponentInfo> components, boolean merging) {
  public RunInfo {
    components = List.copyOf(components);
  }

  /** Total bytes of the run's components. */
  public long sizeBytes() {
    long s = 0;
    for (ComponentInfo c : components) {
      s += c.sizeBytes();
    }
    return s;
  }

  /** Total entries of the run's components, anti-matter included. */
  public long entryCount() {
    long s = 0;
    for (ComponentInfo c : components) {
      s += c.entryCount();
    }
    return s;
  }

  /** Smallest component id covered by the run. */
  public long minComponentId() {
    long m = Long.MAX_VALUE;
    for (ComponentInfo c : components) {
      m = Math.min(m, c.minComponentId());
    }
    return m;
  }

  /** Largest component id covered by the run. */
  public long maxComponentId() {
    long m = Long.MIN_VALUE;
    for (ComponentInfo c : components) {
      m = Math.max(m, c.maxComponentId());
    }
    return m;
  }
}
