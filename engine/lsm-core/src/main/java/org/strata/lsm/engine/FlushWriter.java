package org.strata.lsm.engine;

import java.io.IOException;
import java.util.List;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.memory.MemoryComponent;

/**
 * How a tree's flushes write a sealed memory component, chosen once when the tree opens: {@link
 * BTreeFlush} (a B+-tree component, cut into several files at the merge policy's keys when it
 * gives some) or TRIAD-LOG's {@link ClSsTableFlush} (an index over the sealed log segment, falling
 * back to a B+-tree). The {@link Flusher} around it installs what it wrote, or retires a memory
 * component whose every key TRIAD-MEM carried on ({@link VersionEdit#retire}), which writes
 * nothing. As LevelDB's {@code WriteLevel0Table} over {@code BuildTable}, or RocksDB's
 * {@code FlushJob} over its table factory.
 */
interface FlushWriter {
  /**
   * Writes the keys of {@code mc} that stay on disk (not those TRIAD-MEM carried into the next
   * memory component) as the disk components of flush ordinal {@code componentId}: at least one,
   * each installed (renamed into place and open, holding one reference). On a failure none stays.
   *
   * @throws IOException (or a {@link org.strata.lsm.StorageException} naming the file) if a file
   *     cannot be written
   */
  List<DiskComponent> write(MemoryComponent mc, long componentId) throws IOException;
}
