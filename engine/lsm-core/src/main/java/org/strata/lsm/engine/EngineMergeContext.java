package org.strata.lsm.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.KeySketch;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.OperationCounts;
import org.strata.lsm.spi.PolicyHost;
import org.strata.lsm.spi.RunInfo;

/**
 * The engine's {@link MergeContext} for one index, what its merge policy sees: the run list is the
 * version set's ({@link VersionSet#runList()}); the merges and moves the policy returns go to the
 * index's {@link MergeCoordinator}. Every read of the version set or the statistics
 * takes the tree lock; {@link #savePolicyState} runs with the coordinator's policy lock held by
 * its caller (the policy).
 */
final class EngineMergeContext implements MergeContext {
  private final String name;
  private final Logger log;
  private final ReentrantLock lock;
  private final VersionSet versions;
  private final EngineStats stats;
  private final OperationCounter operations;

  /**
   * The context of the policy of index {@code name}, reading the version set and statistics under
   * the tree lock {@code lock}.
   */
  EngineMergeContext(String name, Logger log, ReentrantLock lock,
      VersionSet versions, EngineStats stats, OperationCounter operations) {
    this.name = name;
    this.log = log;
    this.lock = lock;
    this.versions = versions;
    this.stats = stats;
    this.operations = operations;
  }

  @Override
  public List<RunInfo> runs() {
    lock.lock();
    try {
      return versions.runList().runs();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Set<Capability> capabilities() {
    return PolicyHost.ENGINE.offered();
  }

  /** From the manifest's {@code largestFlushBytes} counter, so it survives restarts. */
  @Override
  public long largestFlushBytes() {
    lock.lock();
    try {
      return stats.get(EngineStats.Counter.LARGEST_FLUSH);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public OperationCounts operationCounts() {
    return operations.counts();
  }

  /** From the manifest's {@code policy.*} counters. */
  @Override
  public Map<String, Long> policyState() {
    lock.lock();
    try {
      return stats.policyState();
    } finally {
      lock.unlock();
    }
  }

  /** Writes the manifest with the new state; the caller (the policy) holds the policy lock. */
  @Override
  public boolean savePolicyState(Map<String, Long> state) {
    MergeContext.checkPolicyStateKeys(state);
    Map<String, Long> copy = Map.copyOf(state);
    try {
      versions.writeManifest(() -> stats.policyState(copy));
      return true;
    } catch (IOException e) {
      log.error("cannot write the manifest of {} with the merge policy's state", name, e);
      return false;
    }
  }

  @Override
  public boolean isMerging(ComponentInfo component) {
    lock.lock();
    try {
      return versions.runList().isMerging(component.name());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public OptionalDouble distinctKeys(List<ComponentInfo> components) {
    lock.lock();
    try {
      List<KeySketch> sketches = new ArrayList<>(components.size());
      for (ComponentInfo c : components) {
        DiskComponent dc = versions.component(c.name());
        if (dc == null || dc.keySketch() == null) {
          return OptionalDouble.empty();
        }
        sketches.add(dc.keySketch());
      }
      return OptionalDouble.of(KeySketch.merge(sketches).estimate());
    } finally {
      lock.unlock();
    }
  }
}
