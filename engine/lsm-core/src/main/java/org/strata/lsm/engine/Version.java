package org.strata.lsm.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * An immutable snapshot of an index's components: memory components (active first, then the
 * flushing ones, newest first) and the index's one {@link RunList} (runs newest first, with the
 * files that are merging), whose files this version holds open. {@link #runs} is that list with
 * each file resolved to its {@link DiskComponent}, for the read path; it is derived here and
 * nowhere else, so the policy's view and the files the engine reads cannot disagree. Readers
 * retain the version they read, so a flush or merge that installs a new version never pulls
 * components from under them: a version holds one reference on each disk component and gives
 * them back when its own count drops to zero. Only {@link VersionSet} makes versions.
 */
final class Version {
  final List<MemoryComponent> memory;
  /** The runs as the merge policy sees them, merging marks included. */
  final RunList runList;
  /** {@link #runList} with its files open, newest first. */
  final List<Run> runs;
  /** The open files of {@link #runs} by component name. */
  private final Map<String, DiskComponent> files;
  private final AtomicInteger refs = new AtomicInteger(1);

  /**
   * The version of {@code runList}, its files taken from {@code open} by name; takes a reference on
   * each of them.
   *
   * @throws IllegalStateException if the run list names a file {@code open} does not hold
   */
  Version(List<MemoryComponent> memory, RunList runList, Map<String, DiskComponent> open) {
    Map<String, DiskComponent> held = new HashMap<>();
    List<Run> resolved = new ArrayList<>(runList.runs().size());
    for (RunInfo info : runList.runs()) {
      Run r = resolve(info, open);
      r.components().forEach(c -> held.put(c.path().getFileName().toString(), c));
      resolved.add(r);
    }
    this.memory = List.copyOf(memory);
    this.runList = runList;
    this.runs = List.copyOf(resolved);
    this.files = Map.copyOf(held);
    retainAll();
  }

  /** A version of the same runs and files; takes a reference on each file. */
  private Version(List<MemoryComponent> memory, RunList runList, Version same) {
    this.memory = List.copyOf(memory);
    this.runList = runList;
    this.runs = same.runs;
    this.files = same.files;
    retainAll();
  }

  private void retainAll() {
    for (Run r : runs) {
      for (DiskComponent c : r.components()) {
        c.retain();
      }
    }
  }

  /** This version with other memory components (a seal, a flush that wrote no file). */
  Version withMemory(List<MemoryComponent> nextMemory) {
    return new Version(nextMemory, runList, this);
  }

  /**
   * This version with other merging marks: {@code marked} must hold the same runs and files,
   * only which of them are merging differs.
   */
  Version withMarks(RunList marked) {
    return new Version(memory, marked, this);
  }

  /** The open files of this version by name, to build the next version from. */
  Map<String, DiskComponent> files() {
    return files;
  }

  /**
   * The engine's run for {@code info}, a run of this version's list (or a window of it).
   *
   * @throws IllegalStateException if it names a file this version does not hold
   */
  Run resolve(RunInfo info) {
    return resolve(info, files);
  }

  private static Run resolve(RunInfo info, Map<String, DiskComponent> open) {
    List<DiskComponent> cs = new ArrayList<>(info.components().size());
    for (ComponentInfo c : info.components()) {
      DiskComponent dc = open.get(c.name());
      if (dc == null) {
        throw new IllegalStateException("the run list names component " + c.name()
            + ", which the engine does not hold");
      }
      cs.add(dc);
    }
    return new Run(info.runId(), info.level(), cs);
  }

  /** The open file named {@code name}, or null. */
  DiskComponent file(String name) {
    return files.get(name);
  }

  /** Takes a reference unless the version is already dead; returns whether it did. */
  boolean tryRetain() {
    while (true) {
      int r = refs.get();
      if (r <= 0) {
        return false;
      }
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  void release() {
    int r = refs.decrementAndGet();
    if (r == 0) {
      for (Run run : runs) {
        for (DiskComponent c : run.components()) {
          c.release();
        }
      }
    } else if (r < 0) {
      throw new IllegalStateException("version released too often");
    }
  }

  int diskComponentCount() {
    int n = 0;
    for (Run r : runs) {
      n += r.components().size();
    }
    return n;
  }

  /** The deepest stored level of the runs (0 with none). */
  int deepestLevel() {
    int deepest = 0;
    for (Run r : runs) {
      deepest = Math.max(deepest, r.level());
    }
    return deepest;
  }
}
