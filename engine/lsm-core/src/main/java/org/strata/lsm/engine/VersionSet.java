package org.strata.lsm.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CrashPoints;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeWindow;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * The current {@link Version} of an index (its memory components and its one {@link RunList}),
 * its id counters (component file numbers, flush ordinals, run ids), its flushed log sequence
 * number, and {@link #logAndApply} that installs a {@link VersionEdit} and writes the manifest, as
 * LevelDB's {@code VersionSet} does. Every version is made here: a seal, a flush, a merge or move,
 * and a change of merging marks.
 *
 * <p>Locks. Lock order: {@code manifestLock} (declared here) before the tree lock (passed in,
 * declared by {@link LsmTree}) before the switch lock of {@link MemoryComponents}. {@code
 * manifestLock} is held while an edit is installed and its manifest written, so manifests reach
 * the disk in the order versions are installed. Everything else here is guarded by the tree lock
 * except {@link #current()}, which readers take without a lock.
 */
final class VersionSet {
  private final Path dir;
  private final FileIo io;
  private final ReentrantLock lock;
  private final EngineStats stats;
  private final CrashPoints crashPoints;
  /** Told of every flush, merge and move once its manifest is written. */
  private final TreeHistory history;
  /** Held while an edit is installed and its manifest written. Taken before the tree lock. */
  private final Object manifestLock = new Object();

  private volatile Version current;
  // Guarded by lock.
  @GuardedBy("lock")
  private long nextFileNumber;
  @GuardedBy("lock")
  private long nextComponentId;
  @GuardedBy("lock")
  private long nextRunId = 1;
  @GuardedBy("lock")
  private long flushedLsn;
  /** The log this index's unflushed writes are in, and its directory; null until known. */
  @GuardedBy("lock")
  private java.util.UUID logId;
  @GuardedBy("lock")
  private String logDir;
  /** Lowest LSN of a flushed component whose manifest is not yet written; MAX_VALUE if none. */
  @GuardedBy("lock")
  private long becomingDurableMinLsn = Long.MAX_VALUE;

  /**
   * @param lock the tree lock, which guards the counters and the run list
   * @param stats the counters the manifest keeps
   * @param crashPoints called at the flush, merge and manifest crash points
   * @param history told of every flush, merge and move, in order, once its manifest is written
   */
  VersionSet(Path dir, FileIo io, ReentrantLock lock, EngineStats stats,
      CrashPoints crashPoints, TreeHistory history) {
    this.dir = dir;
    this.history = history;
    this.io = io;
    this.lock = lock;
    this.stats = stats;
    this.crashPoints = crashPoints;
  }

  /** The hook the flusher and merges call at their crash points. */
  CrashPoints crashPoints() {
    return crashPoints;
  }

  /**
   * Starts from a recovered manifest: {@code runs} (each component holding one reference, which
   * the first version takes over) and an empty active memory component.
   */
  void recovered(Manifest m, List<Run> runs, MemoryComponent active) {
    lock.lock();
    try {
      nextFileNumber = m.nextFileNumber();
      nextComponentId = m.nextComponentId();
      flushedLsn = m.flushedLsn();
      logId = m.logId();
      logDir = m.logDir();
      stats.restore(m.counters());
      List<RunInfo> infos = new ArrayList<>(runs.size());
      Map<String, DiskComponent> open = new HashMap<>();
      for (Run r : runs) {
        infos.add(new Run(nextRunId++, r.level(), r.components()).info(false));
        r.components().forEach(c -> open.put(componentName(c), c));
      }
      current = new Version(List.of(active), RunList.of(infos), open);
      for (Run r : runs) {
        r.components().forEach(DiskComponent::release); // the version holds them now
      }
    } finally {
      lock.unlock();
    }
  }

  /** The current version, without a reference (for a quick look under no lock). */
  Version current() {
    return current;
  }

  /** The current version with a reference the caller releases. */
  Version acquire() {
    while (true) {
      Version v = current;
      if (v.tryRetain()) {
        return v;
      }
    }
  }

  /**
   * Installs the version of a seal: {@code fresh} becomes the newest (active) memory component in
   * front of the sealed ones, the runs unchanged. The caller holds the tree lock and the memory
   * components' switch lock (exclusive), so no writer inserts meanwhile.
   */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  void sealed(MemoryComponent fresh) {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    Version v = current;
    List<MemoryComponent> mem = new ArrayList<>(v.memory.size() + 1);
    mem.add(fresh);
    mem.addAll(v.memory);
    install(v.withMemory(mem)).release();
  }

  /** Makes {@code v} current; returns the previous version, which the caller must release. */
  private Version install(Version v) {
    Version old = current;
    current = v;
    return old;
  }

  /** Writes the open's line of the history, with the runs recovered. */
  void historyOpened() {
    history.opened(current.runList);
  }

  /** Writes the close's line of the history, with the runs left; releases its file. */
  void historyClosed() {
    history.closed(current.runList);
  }

  /** Releases the history's file without a line (an open that was refused). */
  void historyAbandoned() {
    history.abandoned();
  }

  /** A write stall of the index (or its group) that ended; see {@link TreeHistory#stalled}. */
  void stalled(org.strata.lsm.StallCause cause, long nanos) {
    history.stalled(cause, nanos);
  }

  /** Allocates a component file number. */
  long newFileNumber() {
    lock.lock();
    try {
      return nextFileNumber++;
    } finally {
      lock.unlock();
    }
  }

  /** Allocates the next flush ordinal (component id); see {@link #returnComponentId}. */
  long newComponentId() {
    lock.lock();
    try {
      return nextComponentId++;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back a component id whose flush failed, so ids stay equal to flush ordinals. */
  void returnComponentId(long id) {
    lock.lock();
    try {
      if (nextComponentId == id + 1) {
        nextComponentId = id;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records the log this index's unflushed writes are in (its id and directory); the next
   * manifest carries them. Returns whether they changed (the caller then writes a manifest).
   */
  boolean log(java.util.UUID id, String dir) {
    lock.lock();
    try {
      boolean changed = !id.equals(logId) || !dir.equals(logDir);
      logId = id;
      logDir = dir;
      return changed;
    } finally {
      lock.unlock();
    }
  }

  /** The log id the manifest recorded, or null. */
  java.util.UUID logId() {
    lock.lock();
    try {
      return logId;
    } finally {
      lock.unlock();
    }
  }

  /** The log directory the manifest recorded, or null. */
  String logDir() {
    lock.lock();
    try {
      return logDir;
    } finally {
      lock.unlock();
    }
  }

  /** The highest sequence number on disk. Caller holds the tree lock. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  long flushedLsn() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return flushedLsn;
  }

  /** Lowest LSN of flushed components not yet durably listed, or MAX_VALUE. Caller holds lock. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  long becomingDurableMinLsn() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return becomingDurableMinLsn;
  }

  /** The run list of the current version. Caller holds the tree lock. */
  RunList runList() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return current.runList;
  }

  /**
   * Installs a version whose run list differs from the current one in its merging marks only.
   * Caller holds the tree lock.
   */
  void runList(RunList marked) {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    install(current.withMarks(marked)).release();
  }

  /**
   * Installs {@code edit} as a new version and writes the manifest. When this returns, the edit is
   * durable; if the manifest write fails, the edit stays installed in memory (the previous
   * manifest on disk still lists what it replaced) and the error is thrown.
   *
   * @return the manifest written
   */
  Manifest logAndApply(VersionEdit edit) throws IOException {
    synchronized (manifestLock) {
      Version old;
      Manifest manifest;
      List<String> inputs = new ArrayList<>();
      List<ComponentInfo> outputs = new ArrayList<>(edit.outputs().size());
      RunList after;
      lock.lock();
      try {
        edit.outputs().forEach(c -> outputs.add(c.info()));
        if (edit.flushed() != null) {
          old = install(applyFlush(edit));
        } else {
          // the inputs as the version before this edit holds them, for the counters and history
          MergeWindow window = current.runList.window(edit.merge());
          window.components().forEach(c -> inputs.add(c.name()));
          old = install(applyMerge(edit, window, outputs));
        }
        edit.outputs().forEach(DiskComponent::release); // the new version holds them
        manifest = snapshot();
        after = current.runList;
      } finally {
        lock.unlock();
      }
      try {
        manifest.write(dir, io, () -> crashPoints.reached(CrashPoint.MANIFEST_BEFORE_RENAME));
      } finally {
        old.release();
      }
      if (edit.flushed() != null) {
        history.flushed(edit.flushed().id(), outputs, after);
      } else {
        history.merged(edit.merge(), inputs, outputs, edit.record(), after);
      }
      lock.lock();
      try {
        becomingDurableMinLsn = Long.MAX_VALUE; // manifests are written one at a time, in order
      } finally {
        lock.unlock();
      }
      return manifest;
    }
  }

  @GuardedBy("lock")
  private Version applyFlush(VersionEdit edit) {
    MemoryComponent mc = edit.flushed();
    List<DiskComponent> dcs = edit.outputs(); // one file, or several cut by the policy
    List<MemoryComponent> mem = new ArrayList<>(current.memory);
    mem.remove(mc);
    if (edit.outputs().isEmpty()) { // TRIAD-MEM kept every key in memory: no level-0 component
      becomingDurableMinLsn = Math.min(becomingDurableMinLsn, mc.minLsn());
      flushedLsn = Math.max(flushedLsn, mc.maxLsn());
      stats.flushSkipped(mc.userBytes());
      return current.withMemory(mem);
    }
    RunList next = current.runList.addNewest(new Run(nextRunId++, 0, dcs).info(false));
    Map<String, DiskComponent> open = new HashMap<>(current.files());
    dcs.forEach(c -> open.put(componentName(c), c));
    becomingDurableMinLsn = Math.min(becomingDurableMinLsn, mc.minLsn());
    flushedLsn = Math.max(flushedLsn, mc.maxLsn());
    long dataBytes = 0;
    long logBytes = 0;
    for (DiskComponent dc : dcs) {
      if (dc.logSegment() == null) { // a CL-SSTable's leaves hold log pointers, no value bytes
        dataBytes += dc.meta().leafEnd() - dc.meta().leafStart();
      } else {
        logBytes += dc.logSegment().sizeBytes();
      }
    }
    stats.flushed(mc.userBytes(), edit.outputBytes(), dataBytes, logBytes);
    return new Version(mem, next, open);
  }

  /**
   * The version after the merge or move {@code edit}: {@code window} is its inputs in the current
   * run list, {@code outputInfos} its outputs' infos.
   */
  @GuardedBy("lock")
  private Version applyMerge(VersionEdit edit, MergeWindow window,
      List<ComponentInfo> outputInfos) {
    long[] runIds = {nextRunId}; // the supplier runs inside apply, on this thread
    RunList next = current.runList.apply(edit.merge(), outputInfos, () -> runIds[0]++);
    nextRunId = runIds[0];
    Map<String, DiskComponent> open = new HashMap<>(current.files());
    for (DiskComponent c : edit.outputs()) {
      open.put(componentName(c), c);
    }
    if (!(edit.merge() instanceof MergeRequest.Move)) { // a move rewrites nothing
      long dataBytes = 0;
      for (DiskComponent c : edit.outputs()) {
        dataBytes += c.meta().leafEnd() - c.meta().leafStart();
      }
      long inputBytes = 0;
      for (RunInfo run : window.runs()) {
        inputBytes += run.sizeBytes();
      }
      stats.merged(edit.outputBytes(), dataBytes, inputBytes, edit.record());
    }
    return new Version(current.memory, next, open);
  }

  /** Counts how long a flush took, for the flush-duration histogram. Takes the tree lock. */
  void flushTook(long nanos) {
    lock.lock();
    try {
      stats.flushTook(nanos);
    } finally {
      lock.unlock();
    }
  }

  /** The manifest of the current version. Caller holds the tree lock. */
  @GuardedBy("lock")
  Manifest snapshot() {
    List<Manifest.RunEntry> runs = new ArrayList<>();
    Map<String, ComponentIdentity> identities = new HashMap<>();
    for (Run r : current.runs) {
      List<String> files = new ArrayList<>();
      for (DiskComponent c : r.components()) {
        files.add(componentName(c));
        identities.put(componentName(c), ComponentIdentity.of(c));
      }
      runs.add(new Manifest.RunEntry(r.level(), files));
    }
    return new Manifest(nextFileNumber, nextComponentId, flushedLsn, runs, stats.persisted(),
        identities, logId, logDir);
  }

  /** Writes the manifest of the current version (at close). */
  void writeManifest(Runnable underLock) throws IOException {
    synchronized (manifestLock) {
      Manifest manifest;
      lock.lock();
      try {
        underLock.run();
        manifest = snapshot();
      } finally {
        lock.unlock();
      }
      manifest.write(dir, io);
    }
  }

  /** Whether this thread holds the tree lock (for the assertions of classes that share it). */
  boolean lockHeld() {
    return lock.isHeldByCurrentThread();
  }

  /** The engine's runs for the runs of a request's window. Caller holds the tree lock. */
  List<Run> runsOf(List<RunInfo> infos) {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    Version v = current;
    List<Run> out = new ArrayList<>(infos.size());
    for (RunInfo r : infos) {
      out.add(v.resolve(r));
    }
    return out;
  }

  /** The disk component named {@code name} in the current version, or null. Caller holds lock. */
  DiskComponent component(String name) {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return current.file(name);
  }

  private static String componentName(DiskComponent c) {
    return c.path().getFileName().toString();
  }

}
