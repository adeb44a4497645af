package org.strata.reproduce;

import java.util.List;

/**
 * What a paper's reproduction produced.
 *
 * @param claims one row per claim, in the order of the paper's spec
 * @param figures the charts drawn, relative to the output directory
 * @param notes paragraphs for the report: how the experiments were set up, what differs from the
 *     paper
 */
public record PaperResult(List<Claim> claims, List<Figure> figures, List<String> notes) {
  public PaperResult {
    claims = List.copyOf(claims);
    figures = List.copyOf(figures);
    notes = List.copyOf(notes);
    if (claims.isEmpty()) {
      throw new IllegalArgumentException("a reproduction must check at least one claim");
    }
  }
}
