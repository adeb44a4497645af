package org.strata.reproduce;

import java.util.List;

/**
 * What a paper's reproduction produced.
 *
 * @param claims one row per claim, in the order of its docs/papers page
 * @param figures the charts drawn, relative to the output directory
 * @param notes paragraphs for the report: how the experiments were set up, what differs from the
 *     paper
 * @param device the storage device the experiments ran on, in words (a device model's name,
 *     bandwidths and force latency; or that there was none and why)
 */
public record PaperResult(List<Claim> claims, List<Figure> figures, List<String> notes,
    String device) {
  /** A result of experiments that ran on no storage device: simulated time or formulas. */
  public PaperResult(List<Claim> claims, List<Figure> figures, List<String> notes) {
    this(claims, figures, notes, "none: the experiments run on simulated time or formulas, not"
        + " on files");
  }

  public PaperResult {
    claims = List.copyOf(claims);
    figures = List.copyOf(figures);
    notes = List.copyOf(notes);
    if (claims.isEmpty()) {
      throw new IllegalArgumentException("a reproduction must check at least one claim");
    }
  }
}
