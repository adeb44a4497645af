package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How writes are admitted while merges lag (the {@code flow-control} section; Luo & Carey 5.1 and
 * 5.7). The modes are read case-insensitively, as they always were.
 *
 * @param constraint {@code flow-control.constraint}, default {@link Constraint#GLOBAL}; null means
 *     the default
 * @param admission {@code flow-control.admission}, default {@link Admission#ASAP}; null means the
 *     default
 * @param writeRate {@code flow-control.write-rate}: bytes (keys and values) per second for {@code
 *     limit} and {@code graded}, 1 byte to 1TB, default 16MB; null means the default
 * @param slowdownAt {@code flow-control.slowdown-at}: fraction of the constraint at which {@code
 *     graded} starts slowing writes, more than 0 and at most 1, default 0.8; null means the default
 */
public record FlowControl(
    @JsonProperty("constraint")
    @JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_VALUES) Constraint constraint,
    @JsonProperty("admission")
    @JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_VALUES) Admission admission,
    @JsonProperty("write-rate") ByteSize writeRate,
    @JsonProperty("slowdown-at") Double slowdownAt) {

  /** When writes stop while merges lag. */
  public enum Constraint {
    /**
     * Writes stop while the policy's component constraint holds ({@code
     * MergePolicy.isMergeLagging}: total components above twice the expected count, or LevelDB's
     * level-0 stop for partitioned leveling) and a merge is pending.
     */
    GLOBAL,
    /**
     * Writes stop while any level holds more runs than the policy allows per level ({@code
     * MergePolicy.isMergeLaggingLocally}: 2 for leveling, 2(T−1) for tiering) and a merge is
     * pending.
     */
    LOCAL;

    /** The configuration name: {@code global} or {@code local}. */
    @JsonValue
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How fast writes are admitted while the constraint does not stop them. */
  public enum Admission {
    /** Full speed; writes stop only while the constraint is violated. */
    ASAP,
    /** Every write is also paced to {@code write-rate}. */
    LIMIT,
    /**
     * Writes are paced to {@code write-rate} while the disk components reach {@code slowdown-at} of
     * the global constraint (RocksDB-style slowdown before the stop).
     */
    GRADED;

    /** The configuration name: {@code asap}, {@code limit} or {@code graded}. */
    @JsonValue
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public FlowControl {
    constraint = constraint == null ? Constraint.GLOBAL : constraint;
    admission = admission == null ? Admission.ASAP : admission;
    writeRate = ConfigChecks.size("flow-control.write-rate", writeRate, ByteSize.ofBytes(16L << 20),
        1, 1L << 40);
    slowdownAt = ConfigChecks.number("flow-control.slowdown-at", slowdownAt, 0.8,
        v -> v > 0 && v <= 1, "a fraction greater than 0 and at most 1");
  }

  /** The defaults: global constraint, writes as soon as possible. */
  public static FlowControl defaults() {
    return new FlowControl(null, null, null, null);
  }

  /** The given modes, a write rate of {@code writeRate} bytes/s and {@code slowdownAt}. */
  public static FlowControl of(Constraint constraint, Admission admission, long writeRate,
      double slowdownAt) {
    return new FlowControl(constraint, admission, ByteSize.ofBytes(writeRate), slowdownAt);
  }
}
