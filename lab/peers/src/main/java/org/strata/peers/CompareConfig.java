package org.strata.peers;

import java.util.List;
import org.strata.twophase.LookupConfig;
import org.strata.twophase.TwoPhaseConfig;

/**
 * A comparison (docs/compare.md): one two-phase configuration and the systems it runs against,
 * one after another, each on fresh directories.
 *
 * @param twoPhase the two-phase configuration (every key of docs/two-phase.md)
 * @param systems the systems, the first being the one every ratio is taken against
 * @param lookup the point-lookup phase of {@code --phases lookup} (the defaults if not given)
 */
public record CompareConfig(TwoPhaseConfig twoPhase, List<SystemSpec> systems,
    LookupConfig lookup) {
  public CompareConfig {
    systems = List.copyOf(systems);
    lookup = lookup == null ? LookupConfig.defaults() : lookup;
  }

  /** A comparison with the default lookup phase. */
  public CompareConfig(TwoPhaseConfig twoPhase, List<SystemSpec> systems) {
    this(twoPhase, systems, null);
  }
}
