package org.strata.policy;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.Parameters;

/**
 * {@code triad-disk}: see {@link TriadDiskPolicy}. The parameters of {@code partitioned-leveling}
 * plus {@code overlap-ratio} (0.4) and {@code max-l0-files} (6).
 */
public final class TriadDiskPolicyFactory extends PartitionedLevelingPolicyFactory {
  @Override
  public String name() {
    return "triad-disk";
  }

  @Override
  public Set<String> parameterNames() {
    Set<String> s = new HashSet<>(PARAMETERS);
    s.add("overlap-ratio");
    s.add("max-l0-files");
    return Set.copyOf(s);
  }

  /** Those of {@code partitioned-leveling}, and key sketches for the overlap ratio. */
  @Override
  public Set<MergeContext.Capability> requiredCapabilities() {
    Set<MergeContext.Capability> s = new HashSet<>(super.requiredCapabilities());
    s.add(MergeContext.Capability.KEY_SKETCHES);
    return Set.copyOf(s);
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'triad-disk'", parameters, parameterNames());
    Settings s = settings(parameters, p);
    return new TriadDiskPolicy(s.fileSize(), s.level1Size(), s.ratio(), s.l0Trigger(),
        s.l0Stop(), s.chooseBest(), s.exactlyL0Trigger(), s.trivialMove(),
        p.doubleValue("overlap-ratio", 0.4, 0.0, 1.0), p.intValue("max-l0-files", 6, 1, 100_000));
  }
}
