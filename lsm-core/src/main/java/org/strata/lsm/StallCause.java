package org.strata.lsm;

/** Why writers waited. */
public enum StallCause {
  /** Every memory component was full and the flush had not freed one (a flush stall). */
  MEMORY_FULL,
  /** The merge policy's component constraint was violated (a merge stall). */
  CONSTRAINT;

  /** Lower-case name used in JSON. */
  public String jsonName() {
    return this == MEMORY_FULL ? "memoryFull" : "constraint";
  }
}
