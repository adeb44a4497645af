package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LogRecoveryMode;

/**
 * The {@code log} section: the write-ahead log.
 *
 * @param durability {@code log.durability}: when a write's log record is forced, default {@code
 *     group}; null means the default
 * @param dir {@code log.dir}: directory of the log, or null (the default) for {@code <store>/wal};
 *     a relative path is taken relative to the store (or dataset) directory, never the working
 *     directory, and an open saves it absolute; an empty path is refused
 * @param groupCommitIntervalMs {@code log.group-commit-interval-ms}: group-commit period, 1 to
 *     60000, default 10; null means the default
 * @param recoveryMode {@code log.recovery-mode}: what recovery does with a bad log record, default
 *     {@code tolerate-torn-tail}; null means the default
 */
public record LogConfig(
    @JsonProperty("durability") Durability durability,
    @JsonProperty("dir") @JsonSetter(nulls = Nulls.SKIP) String dir,
    @JsonProperty("group-commit-interval-ms") Long groupCommitIntervalMs,
    @JsonProperty("recovery-mode") LogRecoveryMode recoveryMode) {

  public LogConfig {
    durability = durability == null ? Durability.GROUP : durability;
    if (dir != null && dir.isBlank()) {
      throw InvalidConfigurationException.of("log.dir", dir, "a directory path (absolute, or"
          + " relative to the store directory); leave log.dir out for <store>/wal");
    }
    groupCommitIntervalMs = ConfigChecks.integer("log.group-commit-interval-ms",
        groupCommitIntervalMs, 10, 1, 60_000);
    recoveryMode = recoveryMode == null ? LogRecoveryMode.TOLERATE_TORN_TAIL : recoveryMode;
  }

  /** The defaults: group commit every 10 ms in {@code <store>/wal}, torn tails tolerated. */
  public static LogConfig defaults() {
    return new LogConfig(null, null, null, null);
  }

  /** This log with durability {@code d}. */
  public LogConfig withDurability(Durability d) {
    return new LogConfig(d, dir, groupCommitIntervalMs, recoveryMode);
  }

  /** This log in directory {@code logDir} (null: {@code <store>/wal}). */
  public LogConfig withDir(String logDir) {
    return new LogConfig(durability, logDir, groupCommitIntervalMs, recoveryMode);
  }

  /** This log recovered with {@code mode}. */
  public LogConfig withRecoveryMode(LogRecoveryMode mode) {
    return new LogConfig(durability, dir, groupCommitIntervalMs, mode);
  }

  /**
   * Throws unless a dataset's indexes may share this log: not {@code unlogged}, since after a
   * crash they agree only through their shared log. Asked by the dataset's configuration and by
   * the tree group that opens the shared log.
   */
  public void checkShareable() {
    if (durability == Durability.UNLOGGED) {
      throw InvalidConfigurationException.of("log.durability", "unlogged", "sync, group or none"
          + " in a dataset: after a crash its indexes agree only through their shared log");
    }
  }
}
