package org.strata.lsm.engine;

import java.util.List;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.spi.MergeRequest;

/**
 * One change to an index's disk components, applied by {@link VersionSet#logAndApply}: a flush
 * (a sealed memory component becomes the newest run) or a merge (the request's inputs are
 * replaced by its outputs). LevelDB's {@code VersionEdit} plays the same part.
 *
 * @param flushed for a flush: the memory component it wrote, else null
 * @param merge for a merge: what the policy asked for, else null
 * @param outputs the new disk components (one for a flush, none for a flush that TRIAD-MEM
 *     skipped; none or more for a merge), each
 *     holding one reference that the installed version takes over
 * @param record for a merge: its record for the merge log, else null
 */
record VersionEdit(MemoryComponent flushed, MergeRequest merge, List<DiskComponent> outputs,
    MergeRecord record) {

  VersionEdit {
    outputs = List.copyOf(outputs);
    if ((flushed == null) == (merge == null)) {
      throw new IllegalArgumentException("an edit is a flush or a merge");
    }
  }

  /** The flush of {@code mc} into {@code component}. */
  static VersionEdit flush(MemoryComponent mc, DiskComponent component) {
    return new VersionEdit(mc, null, List.of(component), null);
  }

  /**
   * The retirement of {@code mc} without a disk component: TRIAD-MEM carried every one of its keys
   * into the next memory component (re-logged there), so its log records are no longer needed.
   */
  static VersionEdit retire(MemoryComponent mc) {
    return new VersionEdit(mc, null, List.of(), null);
  }

  /** The flush of {@code mc} into {@code components}: one run, files in key order. */
  static VersionEdit flush(MemoryComponent mc, List<DiskComponent> components) {
    return new VersionEdit(mc, null, components, null);
  }

  /** The completion of the merge {@code request} into {@code outputs}. */
  static VersionEdit merge(MergeRequest request, List<DiskComponent> outputs, MergeRecord record) {
    return new VersionEdit(null, request, outputs, record);
  }

  /** The metadata-only move {@code request}: no new component, its inputs change runs. */
  static VersionEdit move(MergeRequest.Move request) {
    return new VersionEdit(null, request, List.of(), null);
  }

  /** Bytes of the new components. */
  long outputBytes() {
    long b = 0;
    for (DiskComponent c : outputs) {
      b += c.sizeBytes();
    }
    return b;
  }
}
