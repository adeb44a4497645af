package org.strata.asterix;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.policy.sim.MergeSimulator;

/**
 * A Strata merge policy behind Hyracks' {@link ILSMMergePolicy}. Hyracks calls it after every
 * flush and merge ({@link #diskComponentAdded}) and, for flow control, before it lets a finished
 * flush release its memory component ({@link #isMergeLagging}); both are forwarded to the Strata
 * policy over a {@link HyracksMergeContext}. Each index gets its own Strata policy instance (Strata
 * policies keep per-index state), even if Hyracks shares this object between indexes.
 */
final class StrataMergePolicy implements ILSMMergePolicy {
  private static final int MAX_CALLS = 1000;

  private NamedPlugin plugin;
  private HyracksMergeContext.SizeMeasure measure;
  private final Map<ILSMIndex, Entry> entries = Collections.synchronizedMap(new WeakHashMap<>());

  private record Entry(MergePolicy policy, HyracksMergeContext context) {}

  StrataMergePolicy(StrataMergePolicyFactory.Choice choice) {
    this.plugin = checkRunsOnHyracks(choice.plugin());
    this.measure = choice.measure();
  }

  /**
   * Runs the policy for a few flushes in Strata's merge-policy simulator, whose runs are, like
   * Hyracks components, single files without keys, so a policy that needs partitioned merges or
   * key ranges fails here, at creation, with its own message.
   */
  private static NamedPlugin checkRunsOnHyracks(NamedPlugin plugin) {
    MergeSimulator sim = new MergeSimulator(Plugins.mergePolicy(plugin));
    try {
      for (int i = 0; i < 64; i++) {
        sim.flush(1 << 20);
      }
    } catch (UnsupportedOperationException e) {
      throw new org.strata.lsm.InvalidConfigurationException("merge-policy '" + plugin.name()
          + "' cannot run on Hyracks components: " + e.getMessage());
    }
    return plugin;
  }

  /** The Strata policy this object runs, with its parameters. */
  NamedPlugin plugin() {
    return plugin;
  }

  private Entry entry(ILSMIndex index) {
    synchronized (entries) {
      return entries.computeIfAbsent(index,
          i -> new Entry(Plugins.mergePolicy(plugin), new HyracksMergeContext(i, measure)));
    }
  }

  @Override
  public void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested)
      throws HyracksDataException {
    Entry e = entry(index);
    synchronized (e) {
      int calls = 0;
      try {
        do {
          e.context().refresh();
          e.policy().diskComponentAdded(e.context(), fullMergeIsRequested);
          HyracksDataException f = e.context().takeFailure();
          if (f != null) {
            throw f;
          }
          if (++calls > MAX_CALLS) {
            throw new IllegalStateException("merge-policy '" + plugin.name()
                + "' kept moving runs between levels (" + MAX_CALLS + " calls)");
          }
        } while (e.context().takeMoved());
      } catch (RuntimeException ex) {
        throw HyracksDataException.create(ex);
      }
    }
  }

  @Override
  public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
    Entry e = entry(index);
    synchronized (e) {
      try {
        e.context().refresh();
        return e.policy().isMergeLagging(e.context());
      } catch (RuntimeException ex) {
        throw HyracksDataException.create(ex);
      }
    }
  }

  /**
   * Replaces the policy and its parameters (Hyracks' built-in factories call this after
   * construction); the same properties as {@link StrataMergePolicyFactory#createMergePolicy}.
   */
  @Override
  public void configure(Map<String, String> properties) {
    StrataMergePolicyFactory.Choice c = StrataMergePolicyFactory.choice(properties);
    checkRunsOnHyracks(c.plugin());
    synchronized (entries) {
      plugin = c.plugin();
      measure = c.measure();
      entries.clear();
    }
  }

  @Override
  public String toString() {
    return "strata:" + plugin.name() + plugin.parameters();
  }
}
