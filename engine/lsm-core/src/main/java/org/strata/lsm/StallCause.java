package org.strata.lsm;

/**
 * Why writers waited: the one stall vocabulary from the engine (and the discrete-event simulator)
 * to the reports. Reports and JSON key stalls by {@link #jsonName()}.
 */
public enum StallCause {
  /** Every memory component was full and the flush had not freed one (a flush stall). */
  MEMORY_FULL,
  /** The merge policy's component constraint was violated (a merge stall). */
  CONSTRAINT;

  /** Lower-case name used in JSON. */
  public String jsonName() {
    return this == MEMORY_FULL ? "memoryFull" : "constraint";
  }

  /** The cause whose {@link #jsonName()} is {@code name}, if any. */
  public static java.util.Optional<StallCause> fromJsonName(String name) {
    for (StallCause c : values()) {
      if (c.jsonName().equals(name)) {
        return java.util.Optional.of(c);
      }
    }
    return java.util.Optional.empty();
  }
}
