package org.strata.sim.des;

import java.util.Locale;

/**
 * The simulated machine and tree of {@code strata des} (Luo & Carey's Table 1 quantities). The
 * defaults are the paper's setup: 100 M entries of 1 KB loaded, 128 MB memory components (two of
 * them), 100 MB/s for flushes and merges together, 4 KB pages.
 *
 * @param entries entries loaded before a phase starts; updates draw their keys uniformly from them
 * @param entrySize bytes per entry
 * @param memoryComponentBytes M in bytes: a memory component is flushed when it holds this much
 * @param memoryComponents memory components per tree (at least 2: one active while one flushes)
 * @param bandwidth B, bytes/s shared by flushes (with priority) and merges
 * @param pageSize bytes per page (remaining input pages are counted in these)
 * @param memoryWriteRate writes/s the memory component absorbs when nothing stalls
 * @param constraint {@code global} (the policy's {@code isMergeLagging}), {@code local} ({@code
 *     isMergeLaggingLocally}) or {@code none} (never stop writes; for analyses such as AC-F11)
 * @param admission {@code asap}, {@code limit} (writes paced to {@code writeRate}) or {@code
 *     graded} (paced while disk components reach {@code slowdownAt} of the policy's constraint)
 * @param writeRate writes/s for {@code limit} and {@code graded}
 * @param slowdownAt fraction of the component constraint where {@code graded} starts pacing
 */
public record DesSetup(long entries, int entrySize, long memoryComponentBytes,
    int memoryComponents, double bandwidth, int pageSize, double memoryWriteRate,
    String constraint, String admission, double writeRate, double slowdownAt) {

  /** The paper's setup with the global constraint and writes as soon as possible. */
  public static DesSetup paper() {
    return new DesSetup(100_000_000L, 1024, 128L << 20, 2, 100.0 * (1 << 20), 4096, 1_000_000,
        "global", "asap", 4000, 0.8);
  }

  public DesSetup {
    constraint = constraint.toLowerCase(Locale.ROOT);
    admission = admission.toLowerCase(Locale.ROOT);
    require(entries >= 1, "entries", entries, "at least 1");
    require(entrySize >= 1, "entry size", entrySize, "at least 1 byte");
    require(memoryComponentBytes >= entrySize, "memory component", memoryComponentBytes,
        "at least one entry");
    require(memoryComponents >= 2, "memory components", memoryComponents, "at least 2");
    require(bandwidth > 0 && !Double.isInfinite(bandwidth), "bandwidth", bandwidth,
        "a positive number of bytes/s");
    require(pageSize >= 1, "page size", pageSize, "at least 1 byte");
    require(memoryWriteRate > 0 && !Double.isInfinite(memoryWriteRate), "memory write rate",
        memoryWriteRate, "a positive number of writes/s");
    require(constraint.equals("global") || constraint.equals("local")
        || constraint.equals("none"), "constraint", constraint, "global, local, none");
    require(admission.equals("asap") || admission.equals("limit") || admission.equals("graded"),
        "admission", admission, "asap, limit, graded");
    require(writeRate > 0 && !Double.isInfinite(writeRate), "write rate", writeRate,
        "a positive number of writes/s");
    require(slowdownAt > 0 && slowdownAt <= 1, "slowdown-at", slowdownAt,
        "a fraction greater than 0 and at most 1");
  }

  /** Entries per memory component. */
  public long memoryComponentEntries() {
    return memoryComponentBytes / entrySize;
  }

  /** A copy with another constraint. */
  public DesSetup withConstraint(String c) {
    return new DesSetup(entries, entrySize, memoryComponentBytes, memoryComponents, bandwidth,
        pageSize, memoryWriteRate, c, admission, writeRate, slowdownAt);
  }

  /** A copy with another admission and write rate. */
  public DesSetup withAdmission(String a, double rate) {
    return new DesSetup(entries, entrySize, memoryComponentBytes, memoryComponents, bandwidth,
        pageSize, memoryWriteRate, constraint, a, rate, slowdownAt);
  }

  /** A copy with other data sizes. */
  public DesSetup withSizes(long n, int size, long memoryComponent, double bytesPerSecond) {
    return new DesSetup(n, size, memoryComponent, memoryComponents, bytesPerSecond, pageSize,
        memoryWriteRate, constraint, admission, writeRate, slowdownAt);
  }

  private static void require(boolean ok, String what, Object value, String allowed) {
    if (!ok) {
      throw new IllegalArgumentException(what + " " + value + " is not allowed; use " + allowed);
    }
  }
}
