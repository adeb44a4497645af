package org.strata.lsm.testing;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.Parameters;
import org.strata.lsm.spi.RunInfo;

/**
 * Test policy {@code test-merge-all}: merges every run when there are more than {@code max}
 * runs or a full merge is requested; {@code target-file-size} splits outputs so multi-file
 * runs are exercised. Lags (stalls writers) above {@code lag} runs while a merge runs.
 */
public final class MergeAllPolicy implements MergePolicy {
  private final int max;
  private final int lag;
  private final long targetFileSize;

  MergeAllPolicy(int max, int lag, long targetFileSize) {
    this.max = max;
    this.lag = lag;
    this.targetFileSize = targetFileSize;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (runs.isEmpty() || runs.stream().anyMatch(RunInfo::merging)) {
      return List.of();
    }
    if (fullMergeRequested || runs.size() > max) {
      return List.of(MergeRequest.ofRuns(runs, 1, targetFileSize));
    }
    return List.of();
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    return index.runs().size() > lag && index.runs().stream().anyMatch(RunInfo::merging);
  }

  /** The factory. */
  public static final class Factory implements MergePolicyFactory {
    @Override
    public String name() {
      return "test-merge-all";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of("max", "lag", "target-file-size");
    }

    @Override
    public MergePolicy create(Map<String, String> parameters) {
      Parameters p = Parameters.of("merge-policy 'test-merge-all'", parameters, parameterNames());
      return new MergeAllPolicy(p.intValue("max", 3, 1, 1000), p.intValue("lag", 1000, 1, 100000),
          p.intValue("target-file-size", Integer.MAX_VALUE, 1, Integer.MAX_VALUE));
    }
  }

  /**
   * The same policy under the name {@code test-merge-all-sketched}, declaring {@link
   * MergeContext.Capability#KEY_SKETCHES}: its stores' components carry a key sketch page.
   */
  public static final class SketchedFactory implements MergePolicyFactory {
    private final Factory plain = new Factory();

    @Override
    public String name() {
      return "test-merge-all-sketched";
    }

    @Override
    public Set<String> parameterNames() {
      return plain.parameterNames();
    }

    @Override
    public MergePolicy create(Map<String, String> parameters) {
      return plain.create(parameters);
    }

    @Override
    public Set<MergeContext.Capability> requiredCapabilities() {
      return Set.of(MergeContext.Capability.KEY_SKETCHES);
    }
  }
}
