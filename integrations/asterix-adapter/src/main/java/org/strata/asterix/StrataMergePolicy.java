package org.strata.asterix;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.PolicyDriver;

/**
 * A Strata merge policy behind Hyracks' {@link ILSMMergePolicy}. Hyracks calls it after every
 * flush and merge ({@link #diskComponentAdded}) and, for flow control, before it lets a finished
 * flush release its memory component ({@link #isMergeLagging}); both are forwarded to the Strata
 * policy over a {@link HyracksMergeContext}. Each index gets its own Strata policy instance (Strata
 * policies keep per-index state), even if Hyracks shares this object between indexes.
 */
final class StrataMergePolicy implements ILSMMergePolicy {
  private NamedPlugin plugin;
  private HyracksMergeContext.SizeMeasure measure;
  private final Map<ILSMIndex, Entry> entries = Collections.synchronizedMap(new WeakHashMap<>());

  private record Entry(PolicyDriver driver, HyracksMergeContext context) {}

  /** @param choice a validated choice ({@link StrataMergePolicyFactory#choice}) */
  StrataMergePolicy(StrataMergePolicyFactory.Choice choice) {
    this.plugin = choice.plugin();
    this.measure = choice.measure();
  }

  /** The Strata policy this object runs, with its parameters. */
  NamedPlugin plugin() {
    return plugin;
  }

  private Entry entry(ILSMIndex index) {
    synchronized (entries) {
      return entries.computeIfAbsent(index, i -> new Entry(
          new PolicyDriver(plugin.name(), Plugins.mergePolicy(plugin, HyracksMergeContext.HOST)),
          new HyracksMergeContext(i, measure)));
    }
  }

  /**
   * Asks the policy for merges, and again after each call in which it moved a run to another
   * level, so it sees the levels it set ({@link PolicyDriver}).
   */
  @Override
  public void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested)
      throws HyracksDataException {
    Entry e = entry(index);
    synchronized (e) {
      HyracksMergeContext context = e.context();
      try {
        context.refresh();
        e.driver().diskComponentAdded(context, fullMergeIsRequested, new PolicyDriver.Host() {
          @Override
          public boolean start(MergeRequest request) {
            return context.start(request);
          }

          @Override
          public boolean takeChangedAtOnce() {
            boolean again = context.takeChangedAtOnce() && !context.hasFailure();
            if (again) {
              context.refresh();
            }
            return again;
          }
        });
      } catch (RuntimeException ex) {
        throw HyracksDataException.create(ex);
      }
      HyracksDataException f = context.takeFailure();
      if (f != null) {
        throw f;
      }
    }
  }

  @Override
  public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
    Entry e = entry(index);
    synchronized (e) {
      try {
        e.context().refresh();
        return e.driver().policy().isMergeLagging(e.context());
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
