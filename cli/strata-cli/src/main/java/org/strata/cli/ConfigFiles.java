package org.strata.cli;

import java.util.List;
import java.util.function.Supplier;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.Plugins;
import org.strata.twophase.TwoPhaseConfig;

/**
 * Configuration errors of a file given with {@code --config} name that file. The file's reader
 * names it in its own errors (unknown keys, bad values); the merge policy and scheduler a file
 * names are found and created by the engine only when it opens a store, and its errors name the
 * key alone. So the commands create them once right after reading the file ({@link #check}),
 * before anything is opened or written, and an error that still reaches them from the engine gets
 * the file's name in front ({@link #naming}).
 */
final class ConfigFiles {
  private ConfigFiles() {}

  /** {@code e} with {@code source} in front of its message, unless the message names it already. */
  static InvalidConfigurationException named(String source, InvalidConfigurationException e) {
    if (String.valueOf(e.getMessage()).contains(source)) {
      return e;
    }
    InvalidConfigurationException n =
        new InvalidConfigurationException(source + ": " + e.getMessage());
    n.initCause(e);
    return n;
  }

  /** Runs {@code body}; a configuration error it throws names {@code source} (null: as is). */
  static <T> T naming(String source, Supplier<T> body) {
    try {
      return body.get();
    } catch (InvalidConfigurationException e) {
      throw source == null ? e : named(source, e);
    }
  }

  /**
   * Creates the merge policy and scheduler {@code config} names, as the engine will when it opens
   * a store with it: an unknown name or a bad parameter fails now, naming {@code source}, with the
   * key under {@code prefix} (e.g. {@code dataset.}).
   */
  static void check(String source, String prefix, StoreConfig config) {
    policy(source, prefix + "merge-policy.name", config.mergePolicy());
    scheduler(source, prefix + "merge-scheduler.name", config.mergeScheduler());
  }

  /**
   * {@link #check(String, String, StoreConfig)} for an experiment: the dataset's policy and
   * scheduler, the testing phase's and the running phases' schedulers.
   */
  static void check(String source, TwoPhaseConfig config) {
    check(source, "dataset.", config.dataset().store());
    if (config.testing() != null) {
      scheduler(source, "testing.merge-scheduler.name", config.testing().scheduler());
      policy(source, "testing.merge-policy.name", config.testing().policy());
    }
    if (config.running() != null) {
      List<NamedPlugin> schedulers = config.running().schedulers();
      for (int i = 0; schedulers != null && i < schedulers.size(); i++) {
        scheduler(source, "running.merge-schedulers." + i + ".name", schedulers.get(i));
      }
    }
  }

  private static void policy(String source, String key, NamedPlugin p) {
    if (p != null) {
      try {
        Plugins.mergePolicy(p);
      } catch (InvalidConfigurationException e) {
        throw named(source, "merge-policy.name".equals(e.key()) ? e.withKey(key) : e);
      }
    }
  }

  private static void scheduler(String source, String key, NamedPlugin p) {
    if (p != null) {
      try {
        Plugins.mergeScheduler(p);
      } catch (InvalidConfigurationException e) {
        throw named(source, "merge-scheduler.name".equals(e.key()) ? e.withKey(key) : e);
      }
    }
  }
}
