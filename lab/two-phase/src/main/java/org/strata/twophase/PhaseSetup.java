package org.strata.twophase;

import org.strata.lsm.config.NamedPlugin;

/**
 * How a system is opened for one phase of a two-phase run.
 *
 * @param kind which phase
 * @param scheduler Strata's merge scheduler for the phase (peers run their own and ignore it)
 * @param policy a different Strata merge policy for the testing phase, or null
 */
public record PhaseSetup(Kind kind, NamedPlugin scheduler, NamedPlugin policy) {

  /** The phases. */
  public enum Kind {
    /**
     * Loading: writes as fast as possible with no I/O limit and no write-ahead log, so the tree
     * takes its own shape quickly.
     */
    LOAD,
    /** The closed-loop testing phase, under the I/O budget. */
    TESTING,
    /** An open-loop running phase, under the I/O budget. */
    RUNNING
  }
}
