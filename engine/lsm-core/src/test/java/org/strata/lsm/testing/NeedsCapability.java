package org.strata.lsm.testing;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeContext.Capability;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.MergeRequest;

/**
 * A policy factory named {@code needs-<capability>} that declares one capability and creates a
 * policy that never merges; for tests of the capability checks of each context. Not registered
 * with {@link java.util.ServiceLoader}.
 */
public final class NeedsCapability implements MergePolicyFactory {
  private final Capability needed;

  public NeedsCapability(Capability needed) {
    this.needed = needed;
  }

  @Override
  public String name() {
    return "needs-" + needed.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of();
  }

  @Override
  public Set<Capability> requiredCapabilities() {
    return Set.of(needed);
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    return new MergePolicy() {
      @Override
      public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
        return List.of();
      }

      @Override
      public boolean isMergeLagging(MergeContext index) {
        return false;
      }
    };
  }
}
