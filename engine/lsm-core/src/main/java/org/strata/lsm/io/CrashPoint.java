package org.strata.lsm.io;

/**
 * A named moment in a flush, merge, manifest update or log change where a crash leaves the files
 * of an index in a state recovery must handle. Crash tests stop the process at one of these (see
 * {@link CrashPoints}); the engine itself only announces them.
 */
public enum CrashPoint {
  /** A flush's component files are written, forced and renamed; the manifest does not list them. */
  FLUSH_BEFORE_MANIFEST("flush-before-manifest"),
  /** A merge's output files are written and renamed; the manifest still lists the inputs. */
  MERGE_BEFORE_MANIFEST("merge-before-manifest"),
  /** The manifest lists a merge's output; its input files are not yet released and deleted. */
  MERGE_BEFORE_DELETE("merge-before-delete"),
  /** {@code MANIFEST.tmp} is written and forced, not yet renamed over {@code MANIFEST}. */
  MANIFEST_BEFORE_RENAME("manifest-before-rename"),
  /**
   * A seal rolled the log: the roll is marked in the log's buffer; the next force carries it out
   * (forces the old segment, then creates the new one).
   */
  LOG_ROTATION("log-rotation"),
  /** A flush is durably listed; the log segments it made obsolete are not yet deleted. */
  LOG_TRUNCATION("log-truncation"),
  /**
   * A dataset write is in the log buffer and applied to its primary index's memory component,
   * not yet to the secondary indexes', and not yet forced.
   */
  DATASET_BETWEEN_INDEXES("dataset-between-indexes");

  private final String configName;

  CrashPoint(String configName) {
    this.configName = configName;
  }

  /** The point's name on command lines and in reports, e.g. {@code flush-before-manifest}. */
  public String configName() {
    return configName;
  }

  /** The point named {@code name}; an unknown name is refused naming the allowed ones. */
  public static CrashPoint parse(String name) {
    for (CrashPoint p : values()) {
      if (p.configName.equals(name)) {
        return p;
      }
    }
    StringBuilder allowed = new StringBuilder();
    for (CrashPoint p : values()) {
      allowed.append(allowed.length() == 0 ? "" : ", ").append(p.configName);
    }
    throw new IllegalArgumentException("'" + name + "' is not a crash point; allowed: "
        + allowed);
  }
}
