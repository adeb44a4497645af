package org.strata.twophase;

import java.util.Locale;

/**
 * The outcome of a search for the highest sustainable arrival rate ({@link
 * TwoPhaseRunner#findSustainable}).
 *
 * @param result the load, the testing phase, and every running phase tried, in order
 * @param phaseSeconds seconds of arrivals in each running phase tried
 * @param tolerance the bracket's width at which the search stopped, as a fraction of its top
 * @param sustainable the highest rate found sustainable (0 if none was)
 * @param unsustainable the lowest rate found unsustainable, or the testing maximum if every rate
 *     tried was sustainable
 * @param at95 a running phase at 95% of {@code sustainable}, for its latency (null if none)
 */
public record SustainableRate(TwoPhaseResult result, int phaseSeconds, double tolerance,
    double sustainable, double unsustainable, PhaseResult at95) {

  /** The sentence that says which figure to quote. */
  public String quote() {
    if (sustainable <= 0) {
      return String.format(Locale.ROOT, "No rate tried was sustainable for %d s; there is no"
          + " sustainable rate to quote (the lowest tried was unsustainable).", phaseSeconds);
    }
    String above = sustainable >= unsustainable
        ? "the testing maximum itself was sustainable"
        : String.format(Locale.ROOT, "%,.0f writes/s was not", unsustainable);
    return String.format(Locale.ROOT, "Quote the highest sustainable rate: %,.0f writes/s"
            + " (sustainable for %d s running phases; %s), with write p99 %.2f ms at 95%% of it"
            + " (%,.0f writes/s). The testing maximum (%,.0f writes/s) is not a sustainable"
            + " figure unless it equals this one.", sustainable, phaseSeconds, above,
        at95 == null ? Double.NaN : at95.writeLatency().p99(), 0.95 * sustainable,
        result.testing().throughput());
  }
}
