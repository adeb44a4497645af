package org.strata.lsm;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * When a write's log record is forced to stable storage, or ({@link #UNLOGGED}) whether a write is
 * logged at all.
 */
public enum Durability {
  /** Every write returns only after its log record is forced; concurrent writers share a force. */
  SYNC,
  /**
   * Writes return once their record is in the log buffer; a background task writes and forces the
   * log every {@code log.group-commit-interval}. A machine crash may lose that interval; a process
   * crash loses at most the records not yet handed to the operating system. {@code
   * sync()} makes everything written so far durable.
   */
  GROUP,
  /**
   * The log is written when its buffer fills and forced only by flushes, {@code sync()} and close.
   */
  NONE,
  /**
   * Writes are not logged (RocksDB's {@code disableWAL}), for bulk loads that can be repeated: a
   * write is durable once a flush that holds it has ended ({@code flush()}, {@code sync()}, which
   * flushes under this mode, close, or a background flush of a full memory component), and a crash
   * loses every write not flushed yet. What survives is always every write up to some point, in
   * write order. The log directory keeps only its segment headers. Refused for a dataset (its
   * indexes agree after a crash only through their shared log) and with TRIAD, whose flushes rely
   * on the log.
   */
  UNLOGGED;

  /** The configuration name: {@code sync}, {@code group}, {@code none} or {@code unlogged}. */
  @JsonValue
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a configuration name, naming {@code key} in the error. */
  public static Durability parse(String key, String value) {
    for (Durability d : values()) {
      if (d.configName().equals(value)) {
        return d;
      }
    }
    throw InvalidConfigurationException.of(key, value, "sync, group, none, unlogged");
  }
}
