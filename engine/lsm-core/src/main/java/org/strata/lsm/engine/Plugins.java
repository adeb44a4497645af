package org.strata.lsm.engine;

import java.util.ServiceLoader;
import java.util.TreeMap;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;
import org.strata.lsm.spi.PolicyHost;

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

  /**
   * Creates the named policy for the engine; unknown names and bad parameters fail with a clear
   * message.
   */
  public static MergePolicy mergePolicy(NamedPlugin p) {
    return mergePolicy(p, PolicyHost.ENGINE);
  }

  /**
   * Creates the named policy for a context of kind {@code host}: unknown names, bad parameters and
   * a policy that needs a capability {@code host} lacks fail with a clear message.
   */
  public static MergePolicy mergePolicy(NamedPlugin p, PolicyHost host) {
    MergePolicyFactory f = policyFactory(p);
    MergePolicy policy = f.create(p.parameters());
    host.check(f);
    return policy;
  }

  /**
   * Whether the named policy reads key sketches ({@link MergeContext.Capability#KEY_SKETCHES}),
   * so that the components of its store must carry them; true for a name no factory on the class
   * path has (a store opened with a policy instance of its own), which keeps the sketches.
   */
  public static boolean readsKeySketches(NamedPlugin p) {
    MergePolicyFactory f = policyFactories().get(p.name());
    return f == null || f.requiredCapabilities().contains(MergeContext.Capability.KEY_SKETCHES);
  }

  /** The named policy's factory; an unknown name fails with a clear message. */
  public static MergePolicyFactory policyFactory(NamedPlugin p) {
    TreeMap<String, MergePolicyFactory> all = policyFactories();
    MergePolicyFactory f = all.get(p.name());
    if (f == null) {
      throw InvalidConfigurationException.of("merge-policy.name", p.name(),
          all.isEmpty() ? "none: no merge policy jar is on the class path; add the artifact"
              + " org.strata:lsm-policies (or org.strata:strata-all, which brings the policies,"
              + " the schedulers and a logging binding)"
              : String.join(", ", all.keySet()));
    }
    return f;
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
          all.isEmpty() ? "none: no merge scheduler jar is on the class path; add the"
              + " artifact org.strata:lsm-scheduler (or org.strata:strata-all, which brings the"
              + " policies, the schedulers and a logging binding)"
              : String.join(", ", all.keySet()));
    }
    return f;
  }
}
