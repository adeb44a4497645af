package org.strata.peers;

import java.util.List;
import org.strata.ycsb.twophase.TwoPhaseConfig;

/**
 * A comparison (docs/compare.md): one two-phase configuration and the systems it runs against,
 * one after another, each on fresh directories.
 *
 * @param twoPhase the two-phase configuration (every key of docs/two-phase.md)
 * @param systems the systems, the first being the one every ratio is taken against
 */
public record CompareConfig(TwoPhaseConfig twoPhase, List<SystemSpec> systems) {
  public CompareConfig {
    systems = List.copyOf(systems);
  }
}
