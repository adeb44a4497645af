package org.strata.lsm.spi;

/**
 * Why a merge request cannot be scheduled now: {@link RunList#check}'s answer.
 *
 * @param reason the kind of refusal
 * @param message names the runs or components concerned
 */
public record MergeRejection(Reason reason, String message) {
  /** The kinds of refusal. */
  public enum Reason {
    /** A requested run is not in the list (merged meanwhile, or never there). */
    UNKNOWN_RUN,
    /** The requested runs are not adjacent in the list, newest first. */
    NOT_CONTIGUOUS,
    /** A requested run is an input of a scheduled or running merge. */
    ALREADY_MERGING,
    /** A requested component is not in the list. */
    UNKNOWN_COMPONENT,
    /** A requested component is an input of a scheduled or running merge. */
    COMPONENT_MERGING
  }
}
