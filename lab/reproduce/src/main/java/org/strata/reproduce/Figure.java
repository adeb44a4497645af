package org.strata.reproduce;

/**
 * A chart of a reproduction report.
 *
 * @param file the PNG's path relative to the output directory, e.g. {@code figures/mao-wa.png}
 * @param caption what it shows
 */
public record Figure(String file, String caption) {}
