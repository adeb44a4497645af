package org.strata.policy;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code partitioned-leveling}: see {@link PartitionedLevelingPolicy}. Parameters {@code file-size}
 * (64MB), {@code level1-size} (0: T times the flushed run size), {@code size-ratio} (10), {@code
 * l0-trigger} (4), {@code l0-stop} (12), {@code selection} ({@code round-robin} or {@code
 * choose-best}), {@code merge-exactly-l0-trigger} (false), {@code trivial-move} (false).
 */
public class PartitionedLevelingPolicyFactory implements MergePolicyFactory {
  static final Set<String> PARAMETERS = Set.of("file-size", "level1-size", "size-ratio",
      "l0-trigger", "l0-stop", "selection", "merge-exactly-l0-trigger", "trivial-move");

  @Override
  public String name() {
    return "partitioned-leveling";
  }

  @Override
  public Set<String> parameterNames() {
    return PARAMETERS;
  }

  /** The parsed parameters shared with {@code triad-disk}. */
  record Settings(long fileSize, long level1Size, int ratio, int l0Trigger, int l0Stop,
      boolean chooseBest, boolean exactlyL0Trigger, boolean trivialMove) {}

  final Settings settings(Map<String, String> parameters, Parameters p) {
    String owner = "merge-policy '" + name() + "' parameter ";
    long file = ByteSize.parse(owner + "file-size", parameters.getOrDefault("file-size", "64MB"))
        .bytes();
    long l1 = ByteSize.parse(owner + "level1-size", parameters.getOrDefault("level1-size", "0"))
        .bytes();
    if (file < 1) {
      throw org.strata.lsm.InvalidConfigurationException.of(owner + "file-size", file,
          "a positive size such as 64MB");
    }
    int ratio = p.intValue("size-ratio", 10, 2, 1000);
    int trigger = p.intValue("l0-trigger", 4, 1, 10_000);
    int stop = p.intValue("l0-stop", 12, trigger, 100_000);
    String selection = p.choice("selection", "round-robin",
        new HashSet<>(Set.of("round-robin", "choose-best")));
    return new Settings(file, l1, ratio, trigger, stop, selection.equals("choose-best"),
        p.booleanValue("merge-exactly-l0-trigger", false), p.booleanValue("trivial-move", false));
  }

  /** Partitioned runs (it merges files) and key ranges (it picks files by overlap). */
  @Override
  public Set<MergeContext.Capability> requiredCapabilities() {
    return Set.of(MergeContext.Capability.PARTITIONED_RUNS, MergeContext.Capability.KEY_RANGES);
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy '" + name() + "'", parameters, parameterNames());
    Settings s = settings(parameters, p);
    return new PartitionedLevelingPolicy(s.fileSize(), s.level1Size(), s.ratio(), s.l0Trigger(),
        s.l0Stop(), s.chooseBest(), s.exactlyL0Trigger(), s.trivialMove());
  }
}
