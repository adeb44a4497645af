package org.strata.lsm.engine;

import java.util.ServiceLoader;
import java.util.TreeMap;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;

/** Finds merge policies and schedulers by name through {@link ServiceLoader}. */
public final class Plugins {
  private Plugins() {}

  /** Every merge policy factory on the class path, by name. */
  public static TreeMap<String, MergePolicyFactory> policyFactories() {
    TreeMap<String, MergePolicyFactory> m = new TreeMap<>();
    for (MergePolicyFactory f : ServiceLoader.load(MergePolicyFactory.class)) {
      m.put(f.name(), f);
    }
    return m;
  }

  /** Every merge scheduler factory on the class path, by name. */
  public static TreeMap<String, MergeSchedulerFactory> schedulerFactories() {
    TreeMap<String, MergeSchedulerFactory> m = new TreeMap<>();
    for (MergeSchedulerFactory f : ServiceLoader.load(MergeSchedulerFactory.class)) {
      m.put(f.name(), f);
    }
    return m;
  }

  /** Creates the named policy; unknown names and bad parameters fail with a clear message. */
  public static MergePolicy mergePolicy(NamedPlugin p) {
    TreeMap<String, MergePolicyFactory> all = policyFactories();
    MergePolicyFactory f = all.get(p.name());
    if (f == null) {
      throw InvalidConfigurationException.of("merge-policy.name", p.name(),
          all.isEmpty() ? "none (no merge policy jar is on the class path)"
              : String.join(", ", all.keySet()));
    }
    return f.create(p.parameters());
  }

  /** Creates the named scheduler; unknown names and bad parameters fail with a clear message. */
  public static MergeScheduler mergeScheduler(NamedPlugin p) {
    return schedulerFactory(p).create(p.parameters());
  }

  /** The named scheduler's factory; an unknown name fails with a clear message. */
  public static MergeSchedulerFactory schedulerFactory(NamedPlugin p) {
    TreeMap<String, MergeSchedulerFactory> all = schedulerFactories();
    MergeSchedulerFactory f = all.get(p.name());
    if (f == null) {
      throw InvalidConfigurationException.of("merge-scheduler.name", p.name(),
          all.isEmpty() ? "none (no merge scheduler jar is on the class path)"
              : String.join(", ", all.keySet()));
    }
    return f;
  }
}
