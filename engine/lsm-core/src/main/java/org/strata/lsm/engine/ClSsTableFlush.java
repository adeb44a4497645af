package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StorageException;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.LogSegmentValues;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.wal.LogRecordLocator;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * TRIAD-LOG's flush (Balmau et al., ATC 2017, section 4.3; docs/papers/triad.md#triad-log):
 * instead of copying a sealed
 * memory component's values into a new file, writes only a sorted index over the sealed commit-log
 * segment that already holds them, and makes segment plus index a level-0 disk component, a
 * CL-SSTable. For each key the flush writes (the cold keys, with TRIAD-MEM), the index maps it to
 * the operation of its newest version in the segment: its offset, its length and the CRC32C of its
 * bytes, so a read fetches and checks that operation alone (not its record, which TRIAD-MEM's
 * re-logging fills with 1,024 operations); a delete is an anti-matter entry. The index is an
 * ordinary component file ({@code .cli}) with its Bloom filter and key sketch built from the keys,
 * so reads, merges and verification treat it as any other component, fetching values from the
 * segment by offset (a merge reads the segment once, in offset order).
 *
 * <p>Steps, crash-safe in this order: force the segment; locate every operation in it (each
 * record's CRC32C is checked before its operations' checksums are computed); write and
 * force the index under a temporary name; hard-link the segment as {@code <number>.clog} in the
 * log directory and force the directory; rename the index into place. Only the manifest that
 * lists the {@code .cli} makes it part of the store; until then recovery deletes both names and
 * replays the segment as usual. After it, truncation deletes the segment's {@code wal-*.log} name
 * but not the link, which lives until the merge that consumes the CL-SSTable is in the manifest.
 *
 * <p>A memory component whose versions are not all in one sealed segment (one rebuilt by recovery
 * from several segments), or whose segment has a damaged record (one recovery skipped), is not
 * indexed: it is written as a B+-tree component by the {@link BTreeFlush} this flush falls back
 * to, as it is when hard links are not supported in the log directory or the merge policy cuts the
 * flush into several files.
 */
final class ClSsTableFlush implements FlushWriter {
  private final Path dir;
  private final Logger log;
  private final ComponentFiles files;
  private final VersionSet versions;
  private final Supplier<WriteAheadLog> wal;
  private final BTreeFlush fallback;
  private volatile boolean linksUnsupported;

  /**
   * Tests only: write the 12-byte record pointers of the CL-SSTables of earlier builds instead of
   * operation pointers, to build the stores whose reading those tests check.
   */
  static volatile boolean recordPointersForTests;

  /**
   * @param wal the index's own log (set once the log has been replayed)
   * @param fallback the writer of what cannot be a CL-SSTable (and whose cut keys are asked)
   */
  ClSsTableFlush(Path dir, Logger log, ComponentFiles files, VersionSet versions,
      Supplier<WriteAheadLog> wal, BTreeFlush fallback) {
    this.dir = dir;
    this.log = log;
    this.files = files;
    this.versions = versions;
    this.wal = wal;
    this.fallback = fallback;
  }

  /**
   * A CL-SSTable when the policy cuts nothing and {@code mc} is indexed over one sealed segment;
   * otherwise the fallback's B+-tree component(s).
   */
  @Override
  public List<DiskComponent> write(MemoryComponent mc, long componentId) throws IOException {
    List<byte[]> cuts = fallback.cutKeys();
    if (cuts.isEmpty()) {
      DiskComponent cl = writeIndex(mc, componentId);
      if (cl != null) {
        return List.of(cl);
      }
    }
    return fallback.write(mc, componentId, cuts);
  }

  /**
   * Writes {@code mc} as CL-SSTable flush ordinal {@code componentId}.
   *
   * @return the installed (renamed and opened) component holding one reference, or null if
   *     {@code mc} cannot be indexed over one sealed segment (the caller flushes it as a B+-tree)
   */
  private DiskComponent writeIndex(MemoryComponent mc, long componentId) throws IOException {
    if (linksUnsupported || mc.isEmpty()) {
      return null;
    }
    Path segment = wal.get().sealedSegmentHolding(mc.minLsn(), mc.maxLsn());
    if (segment == null) {
      log.info("memory component {} of {} is not in one sealed log segment; it is flushed as a"
          + " B+-tree component", mc.id(), dir);
      return null;
    }
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      // Durable before the manifest says its operations are on disk. The log's roll forced it
      // already unless durability is none, but a segment replayed at open was not forced by
      // this process; forcing a clean file is cheap.
      ch.force(true);
    }
    LogRecordLocator.Locations where;
    try {
      where = LogRecordLocator.locate(segment);
    } catch (CorruptionException e) {
      // A segment recovery read past a damaged record (log.recovery-mode skip-corrupted): the
      // memory component holds what was replayed; write that as a B+-tree component.
      log.warn("the log segment of memory component {} of {} has a damaged record ({}); it is"
          + " flushed as a B+-tree component", mc.id(), dir, e.getMessage());
      return null;
    }
    boolean[] all = new boolean[mc.entryCount()];
    Arrays.fill(all, true);
    List<MemoryComponent.Entry> entries = mc.newest(all);
    long fileNumber = versions.newFileNumber();
    ComponentFiles.Output out = files.createLogIndex(fileNumber, componentId, mc.maxLsn());
    Path link = files.logDir().resolve(ComponentFiles.logSegmentName(fileNumber));
    boolean linked = false;
    try {
      for (MemoryComponent.Entry e : entries) {
        if (mc.isCarriedOut(e.key())) { // TRIAD-MEM: hot keys went to the next component
          continue;
        }
        if (e.value() == null) {
          out.add(e.key(), null); // anti-matter: nothing to fetch
          continue;
        }
        long lsn = e.lsn();
        if (!where.holds(lsn)) {
          throw new CorruptionException(segment, -1, "the sealed log segment does not hold"
              + " sequence number " + lsn + " of memory component " + mc.id());
        }
        out.add(e.key(), recordPointersForTests
            ? LogSegmentValues.recordPointer(where.offset(lsn), where.index(lsn))
            : LogSegmentValues.pointer(where.operationOffset(lsn), where.operationLength(lsn),
                where.operationCrc(lsn)));
      }
      out.finish();
      try {
        files.io().delete(link); // a leftover of a crashed flush with this file number
        Files.createLink(link, segment);
      } catch (UnsupportedOperationException | FileSystemException e) {
        linksUnsupported = true;
        log.warn("TRIAD-LOG needs hard links in the log directory {} and cannot make one ({});"
            + " flushes of {} write B+-tree components from now on", files.logDir(), e.toString(),
            dir);
        out.discard();
        return null;
      }
      linked = true;
      files.io().forceDirectory(files.logDir());
      return out.install();
    } catch (IOException | RuntimeException e) {
      out.discard();
      if (linked) {
        files.io().delete(link);
      }
      if (e instanceof IOException io) {
        throw new StorageException(out.temporaryPath(), "cannot write CL-SSTable index "
            + out.temporaryPath() + ": " + e, io);
      }
      throw e;
    }
  }
}
