package org.strata.lsm.config;

import java.util.Locale;
import org.strata.lsm.InvalidConfigurationException;

/**
 * How writes are admitted while merges lag (the {@code flow-control} section; Luo & Carey 5.1 and
 * 5.7).
 *
 * @param constraint {@code global} (default): writes stop while the policy's component constraint
 *     holds ({@code MergePolicy.isMergeLagging}: total components above twice the expected count,
 *     or LevelDB's level-0 stop for partitioned leveling) and a merge is pending; {@code local}:
 *     writes stop while any level holds more runs than the policy allows per level ({@code
 *     MergePolicy.levelConstraint}: 2 for leveling, 2(T−1) for tiering) and a merge is pending
 * @param admission {@code asap} (default): writes run at full speed and stop only while the
 *     constraint is violated; {@code limit}: writes are also paced to {@code writeRate}; {@code
 *     graded}: writes are paced to {@code writeRate} while the disk components reach {@code
 *     slowdownAt} of the global constraint (RocksDB-style slowdown before the stop)
 * @param writeRate bytes (keys and values) per second for {@code limit} and {@code graded}
 * @param slowdownAt fraction of the constraint at which {@code graded} starts slowing writes
 */
public record FlowControl(String constraint, String admission, long writeRate,
    double slowdownAt) {

  /** The defaults: global constraint, writes as soon as possible. */
  public static FlowControl defaults() {
    return new FlowControl("global", "asap", 16L << 20, 0.8);
  }

  public FlowControl {
    constraint = constraint.toLowerCase(Locale.ROOT);
    admission = admission.toLowerCase(Locale.ROOT);
    if (!constraint.equals("global") && !constraint.equals("local")) {
      throw InvalidConfigurationException.of("flow-control.constraint", constraint,
          "global, local");
    }
    if (!admission.equals("asap") && !admission.equals("limit") && !admission.equals("graded")) {
      throw InvalidConfigurationException.of("flow-control.admission", admission,
          "asap, limit, graded");
    }
    if (writeRate < 1) {
      throw InvalidConfigurationException.of("flow-control.write-rate", writeRate,
          "a positive rate in bytes per second such as 16MB");
    }
    if (!(slowdownAt > 0 && slowdownAt <= 1)) {
      throw InvalidConfigurationException.of("flow-control.slowdown-at", slowdownAt,
          "a fraction greater than 0 and at most 1");
    }
  }
}
