package org.strata.lsm.dataset;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How a dataset keeps its secondary indexes up to date ({@code secondary-maintenance}); see
 * {@code docs/datasets.md}.
 */
public enum SecondaryMaintenance {
  /**
   * Each write looks up the old record and writes anti-matter for its old secondary entries before
   * inserting the new ones: secondary indexes hold exactly the live records' entries, at the cost
   * of a point lookup per write.
   */
  EAGER,
  /**
   * Each write only inserts the new entries; stale ones stay, and a secondary query validates every
   * candidate against the primary record and drops it if it no longer matches.
   */
  LAZY;

  /** The configuration name: {@code eager} or {@code lazy}. */
  @JsonValue
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
