package org.strata.asterix;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;

/**
 * Passes every call to a policy and records each flushed component's size the first time the
 * policy is told about it (a later read could find it already merged away and deleted).
 */
final class FlushRecordingPolicy implements ILSMMergePolicy {
  private final ILSMMergePolicy delegate;
  private final Set<String> seen = new HashSet<>();
  private final List<Long> flushSizes = new ArrayList<>();

  FlushRecordingPolicy(ILSMMergePolicy delegate) {
    this.delegate = delegate;
  }

  @Override
  public synchronized void diskComponentAdded(ILSMIndex index, boolean full)
      throws HyracksDataException {
    // Components come newest first; flushes that are new to this object (several after a reopen)
    // are recorded oldest first, so the list stays in flush order.
    java.util.TreeMap<Long, Long> fresh = new java.util.TreeMap<>();
    for (ILSMDiskComponent c : index.getDiskComponents()) {
      String name = HyracksMergeContext.name(c);
      String[] range = name.split("_");
      if (range.length == 2 && range[0].equals(range[1]) && seen.add(name)) {
        fresh.put(Long.parseLong(range[0]), c.getComponentSize());
      }
    }
    flushSizes.addAll(fresh.values());
    delegate.diskComponentAdded(index, full);
  }

  @Override
  public void configure(Map<String, String> properties) {
    delegate.configure(properties);
  }

  @Override
  public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
    return delegate.isMergeLagging(index);
  }

  /** Sizes of the flushed components in flush order. */
  synchronized List<Long> flushSizes() {
    return List.copyOf(flushSizes);
  }
}
