package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.strata.lsm.StorageException;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.memory.MemoryComponent;

/**
 * The {@link FlushWriter} of B+-tree components: one file, or several cut at the keys the merge
 * policy gives just before the flush ({@link org.strata.lsm.spi.MergePolicy#flushCutKeys}: one
 * level-0 run of files with disjoint key ranges, for the LSA- and IAM-trees). The keys TRIAD-MEM
 * carried into the next memory component are left out.
 */
final class BTreeFlush implements FlushWriter {
  private final Path dir;
  private final ComponentFiles files;
  private final VersionSet versions;
  private final Supplier<List<byte[]>> cutKeys;

  /**
   * @param cutKeys the policy's cut keys for the flush about to be written (ascending; none for
   *     one file), asked once per flush
   */
  BTreeFlush(Path dir, ComponentFiles files, VersionSet versions,
      Supplier<List<byte[]>> cutKeys) {
    this.dir = dir;
    this.files = files;
    this.versions = versions;
    this.cutKeys = cutKeys;
  }

  /** The policy's cut keys for the next flush. */
  List<byte[]> cutKeys() {
    return cutKeys.get();
  }

  @Override
  public List<DiskComponent> write(MemoryComponent mc, long componentId) throws IOException {
    return write(mc, componentId, cutKeys());
  }

  /** {@link #write(MemoryComponent, long)} with the cut keys already asked for. */
  List<DiskComponent> write(MemoryComponent mc, long componentId, List<byte[]> cuts)
      throws IOException {
    return cuts.isEmpty() ? List.of(write(mc, versions.newFileNumber(), componentId))
        : writeCut(mc, componentId, cuts);
  }

  /**
   * Writes {@code mc} as files cut at {@code cuts} (ascending; a file per non-empty interval), all
   * covering flush ordinal {@code componentId}; on failure none stays.
   */
  private List<DiskComponent> writeCut(MemoryComponent mc, long componentId, List<byte[]> cuts)
      throws IOException {
    List<ComponentFiles.Output> outs = new ArrayList<>();
    ComponentFiles.Output out = null;
    long fileNumber = -1;
    try {
      int next = 0; // the next cut not yet passed
      try (EntryCursor c = mc.cursor(null, null)) {
        while (c.next()) {
          if (mc.isCarriedOut(c.key())) { // TRIAD-MEM: hot keys went to the next component
            continue;
          }
          boolean crossed = false;
          while (next < cuts.size() && Arrays.compareUnsigned(c.key(), cuts.get(next)) >= 0) {
            next++;
            crossed = true;
          }
          if (out != null && crossed) {
            out.finish();
            out = null;
          }
          if (out == null) {
            fileNumber = versions.newFileNumber();
            out = files.create(fileNumber, componentId, componentId, mc.maxLsn(), 0, true);
            outs.add(out);
          }
          out.add(c.key(), c.value());
        }
      }
      if (out == null) { // an empty memory component still makes one (empty) file
        fileNumber = versions.newFileNumber();
        out = files.create(fileNumber, componentId, componentId, mc.maxLsn(), 0, true);
        outs.add(out);
      }
      out.finish();
      List<DiskComponent> dcs = new ArrayList<>(outs.size());
      for (ComponentFiles.Output o : outs) {
        dcs.add(o.install());
      }
      return dcs;
    } catch (IOException | RuntimeException e) {
      for (ComponentFiles.Output o : outs) {
        o.discard();
      }
      if (e instanceof IOException io) {
        Path tmp = dir.resolve(ComponentFiles.fileName(fileNumber) + ".tmp");
        throw new StorageException(tmp, "cannot write component file " + tmp + ": " + e, io);
      }
      throw (RuntimeException) e;
    }
  }

  private DiskComponent write(MemoryComponent mc, long fileNumber, long componentId)
      throws IOException {
    ComponentFiles.Output out = null;
    try {
      out = files.create(fileNumber, componentId, componentId, mc.maxLsn(), 0, true);
      try (EntryCursor c = mc.cursor(null, null)) {
        while (c.next()) {
          if (!mc.isCarriedOut(c.key())) { // TRIAD-MEM: hot keys went to the next component
            out.add(c.key(), c.value());
          }
        }
      }
      out.finish();
      return out.install();
    } catch (IOException e) {
      Path tmp = dir.resolve(ComponentFiles.fileName(fileNumber) + ".tmp");
      if (out != null) {
        out.discard();
      }
      throw new StorageException(tmp, "cannot write component file " + tmp + ": " + e, e);
    } catch (RuntimeException e) {
      if (out != null) {
        out.discard();
      }
      throw e;
    }
  }
}
