package org.strata.reproduce;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One paper's reproduction: runs the paper's experiments at a configured scale and checks each of
 * its claims. Implementations are found with {@link java.util.ServiceLoader} (listed in {@code
 * META-INF/services/org.strata.reproduce.PaperReproduction}); each comes with one configuration
 * per scale as the class-path resources {@code /reproduce/NAME-SCALE.json} (scales {@code tiny},
 * {@code quick} and {@code paper}). Adding a paper is one class, its service line and its
 * configurations.
 */
public interface PaperReproduction {

  /** The short name used on the command line, e.g. {@code mao}. */
  String name();

  /** The paper: authors, title, venue. */
  String title();

  /** Where the claims are specified (a page of docs/papers, or of the paper). */
  String source();

  /**
   * Checks {@code config} without running anything.
   *
   * @throws IllegalArgumentException naming the field that is unknown, missing or invalid
   */
  void validate(JsonNode config);

  /**
   * Runs the experiments described by {@code config} and returns a verdict for every claim. A claim
   * whose check cannot run under this configuration is returned as {@link
   * Verdict#NOT_COMPARABLE} with the reason, never left out.
   *
   * @param config this paper's configuration (unknown fields are refused)
   * @throws IllegalArgumentException if the configuration is invalid, naming what is wrong
   */
  PaperResult run(JsonNode config, ReproductionContext context) throws Exception;
}
