package org.strata.asterix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.AbstractLSMWithBloomFilterDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.impls.AbstractLSMIndex;
import org.apache.hyracks.storage.am.common.impls.NoOpIndexAccessParameters;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeWindow;
import org.strata.lsm.spi.PolicyHost;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;
import org.strata.lsm.spi.RunListContext;

/**
 * One Hyracks LSM index seen through Strata's {@link MergeContext}, so an unchanged Strata policy
 * decides its merges. Each Hyracks disk component is one run:
 *
 * <ul>
 *   <li>Its name and component ids come from its file name: Hyracks names a flushed component
 *       {@code S_S} after its flush sequence S (from 0) and a merged one {@code S_E} after the
 *       range it covers, so Strata's flush ordinals are S+1 .. E+1 and survive restarts.
 *   <li>Size, with the default {@linkplain SizeMeasure#FLUSHED_BYTES flushed-bytes} measure, is
 *       the bytes of the flushes a component holds: a flushed component's {@code
 *       getComponentSize()}, and for a merge output the sum of its inputs', as in Strata's
 *       merge-policy simulator. Hyracks packs a merge output into fewer pages than its inputs
 *       (one metadata page, one Bloom filter, fuller last pages), and policies with size
 *       thresholds (tiering's "level full at T flushes") would otherwise see a level as just short
 *       of full. With {@linkplain SizeMeasure#FILE_BYTES file-bytes} it is {@code
 *       getComponentSize()} itself, what AsterixDB's own policies use. Entries come from the Bloom
 *       filter (Hyracks counts a merge output's entries as the sum of its inputs'); pages are the
 *       file size over the buffer cache's page size.
 *   <li>A run is merging while its component is {@code READABLE_MERGING}.
 *   <li>Levels are kept here: a merge's output gets the level the policy asked for, a flush gets 0.
 *       Hyracks components do not store a level, so levels and flushed bytes are saved in the
 *       index directory's {@link LevelFile} and read back when the index is opened again.
 *   <li>{@link #largestFlushBytes()} is the largest flushed component (one flush ordinal) this
 *       context has seen or read back from the level file, which saves it with the levels: every
 *       flush is either still a component when the index is opened again or was the input of a
 *       merge or level move, and those write the file after the flush was seen.
 * </ul>
 *
 * A merge of two or more runs becomes {@code ILSMIndexAccessor.scheduleMerge}; a "merge" of one
 * run only moves it to another level (nothing to rewrite; Hyracks refuses single-component
 * merges), after which the policy is asked again. The window checks are a {@link RunList}'s.
 * Partitioned (multi-file) merges, key ranges and sketches are not offered ({@link #HOST}): a
 * policy that needs them is refused when the Hyracks policy is created. Callers hold Hyracks'
 * operation-tracker lock, which Hyracks holds around every policy call, so one context is used by
 * one thread at a time.
 */
final class HyracksMergeContext extends RunListContext {
  /** How run sizes are measured for the policy. */
  enum SizeMeasure {
    /** Bytes of the flushes a component holds (the default). */
    FLUSHED_BYTES,
    /** The component's files as Hyracks reports them. */
    FILE_BYTES
  }

  private record Pending(int level, long flushedBytes) {}

  /** Hyracks components are single files whose keys and sketches a policy cannot see. */
  static final PolicyHost HOST = new PolicyHost("Hyracks components", Set.of(),
      "each Hyracks disk component is one file with no key range or sketch a policy can see, so"
          + " choose a policy that merges whole runs, or run this one on Strata's own engine");

  private static final Pattern SEQUENCE = Pattern.compile("^(\\d+)_(\\d+)(?:_.*)?$");
  private static final byte[] NO_KEY = new byte[0];

  private final ILSMIndex index;
  private final SizeMeasure measure;
  private final Map<String, Long> runIds = new HashMap<>();
  private final Map<String, Integer> levels = new HashMap<>();
  private final Map<String, Long> flushedBytes = new HashMap<>();
  private final Map<String, Pending> pending = new HashMap<>();
  private long nextRunId = 1;
  private long largestFlush;
  private LevelFile levelFile;
  /** What never changes about each disk component, read once (policies are asked often). */
  private Map<ILSMDiskComponent, ComponentInfo> known = new java.util.IdentityHashMap<>();
  private List<ILSMDiskComponent> components = List.of();
  /** The Hyracks component of each run of the run list. */
  private Map<Long, ILSMDiskComponent> byRunId = Map.of();
  private HyracksDataException failure;

  HyracksMergeContext(ILSMIndex index, SizeMeasure measure) {
    super(HOST);
    this.index = index;
    this.measure = measure;
  }

  /**
   * Re-reads the index's disk components into the run list, one run per component in Hyracks'
   * order (newest first); call before handing the context to a policy.
   */
  void refresh() {
    components = new ArrayList<>(index.getDiskComponents());
    if (levelFile == null && !components.isEmpty()) {
      java.nio.file.Path dir = directory(components.get(0));
      if (dir != null) {
        levelFile = new LevelFile(dir);
        LevelFile.Saved read = levelFile.read();
        largestFlush = Math.max(largestFlush, read.largestFlush());
        Map<String, LevelFile.Entry> saved = read.entries(); // entries of gone ones are dropped
        for (ILSMDiskComponent c : components) {
          String n = name(c);
          LevelFile.Entry e = saved.get(n);
          if (e != null && !levels.containsKey(n)) {
            levels.put(n, e.level());
            flushedBytes.put(n, e.flushedBytes());
          }
        }
      }
    }
    List<RunInfo> runs = new ArrayList<>(components.size());
    Map<Long, ILSMDiskComponent> ids = new HashMap<>();
    Set<String> present = new HashSet<>();
    Map<ILSMDiskComponent, ComponentInfo> stillKnown = new java.util.IdentityHashMap<>();
    for (ILSMDiskComponent c : components) {
      ComponentInfo file = known.get(c);
      if (file == null) {
        file = info(c);
      }
      stillKnown.put(c, file);
      String name = file.name();
      present.add(name);
      Pending merged = pending.remove(name);
      if (merged != null) {
        levels.put(name, merged.level());
        flushedBytes.put(name, merged.flushedBytes());
      }
      long fileBytes = file.sizeBytes();
      long size = measure == SizeMeasure.FILE_BYTES ? fileBytes
          : flushedBytes.computeIfAbsent(name, n -> fileBytes);
      ComponentInfo ci = size == fileBytes ? file
          : new ComponentInfo(name, file.minComponentId(), file.maxComponentId(), size,
              file.entryCount(), file.pageCount(), NO_KEY, NO_KEY);
      if (ci.minComponentId() == ci.maxComponentId() && ci.minComponentId() > 0) {
        largestFlush = Math.max(largestFlush, ci.sizeBytes()); // a flush, sized as runs() shows it
      }
      long runId = runIds.computeIfAbsent(name, n -> nextRunId++);
      ids.put(runId, c);
      runs.add(new RunInfo(runId, levels.getOrDefault(name, 0), List.of(ci),
          c.getState() == ComponentState.READABLE_MERGING));
    }
    known = stillKnown;
    runIds.keySet().retainAll(present);
    levels.keySet().retainAll(present);
    flushedBytes.keySet().retainAll(present);
    runList(RunList.of(runs));
    byRunId = ids;
  }

  /**
   * A merge of two or more runs goes to Hyracks; a "merge" of one run moves it to {@code
   * outputLevel} at once (Hyracks refuses single-component merges, and there is nothing to
   * rewrite), which the caller learns from {@link #takeChangedAtOnce()}.
   */
  @Override
  protected boolean start(MergeRequest request, MergeWindow window) {
    List<RunInfo> inputRuns = window.runs();
    int outputLevel = request.outputLevel();
    if (inputRuns.size() == 1) {
      RunInfo run = inputRuns.get(0);
      runList(runList().apply(request, run.components(), run.runId())); // a level move
      levels.put(run.components().get(0).name(), outputLevel);
      changedAtOnce();
      save();
      return true;
    }
    List<ILSMDiskComponent> inputs = new ArrayList<>(inputRuns.size());
    long inputBytes = 0;
    for (RunInfo r : inputRuns) {
      inputs.add(byRunId.get(r.runId()));
      inputBytes += flushedBytes.getOrDefault(r.components().get(0).name(), r.sizeBytes());
    }
    // Newest first, as Hyracks expects; the output covers the oldest start to the newest end
    // (Hyracks' sequence numbers are the component ids minus one).
    ComponentInfo newest = inputRuns.get(0).components().get(0);
    ComponentInfo oldest = inputRuns.get(inputRuns.size() - 1).components().get(0);
    String output = (oldest.minComponentId() - 1) + "_" + (newest.maxComponentId() - 1);
    pending.put(output, new Pending(outputLevel, inputBytes));
    ILSMIOOperation op;
    try {
      op = index.createAccessor(NoOpIndexAccessParameters.INSTANCE).scheduleMerge(inputs);
    } catch (HyracksDataException e) {
      pending.remove(output);
      failure = failure == null ? e : failure;
      return false;
    }
    refresh();
    if (op == null || op.getIOOpertionType() == LSMIOOperationType.NOOP) {
      pending.remove(output);
      return false;
    }
    save();
    return true;
  }

  /** Writes every component's level and flushed bytes, and those of merges in flight. */
  private void save() {
    if (levelFile == null) {
      return;
    }
    Map<String, LevelFile.Entry> entries = new java.util.LinkedHashMap<>();
    for (int i = 0; i < components.size(); i++) {
      String name = runs().get(i).components().get(0).name();
      entries.put(name, new LevelFile.Entry(levels.getOrDefault(name, 0),
          flushedBytes.getOrDefault(name, components.get(i).getComponentSize())));
    }
    pending.forEach((name, p) -> entries.putIfAbsent(name,
        new LevelFile.Entry(p.level(), p.flushedBytes())));
    levelFile.write(entries, largestFlush);
  }

  /** The largest flush of the index, also from before it was last opened (see the class doc). */
  @Override
  public long largestFlushBytes() {
    return largestFlush;
  }

  private static java.nio.file.Path directory(ILSMDiskComponent c) {
    for (String path : c.getLSMComponentPhysicalFiles()) {
      java.nio.file.Path parent = java.nio.file.Path.of(path).getParent();
      if (parent != null) {
        return parent;
      }
    }
    return null;
  }

  /** Whether scheduling a merge ran into a Hyracks failure that was not taken yet. */
  boolean hasFailure() {
    return failure != null;
  }

  /** A Hyracks failure that scheduling a merge ran into since the last call, and clears it. */
  HyracksDataException takeFailure() {
    HyracksDataException f = failure;
    failure = null;
    return f;
  }

  /** The component as a policy sees it, sized by its files. */
  private ComponentInfo info(ILSMDiskComponent c) {
    long fileBytes = c.getComponentSize();
    long pageSize = pageSize();
    long pages = pageSize > 0 ? (fileBytes + pageSize - 1) / pageSize : 0;
    Matcher m = match(c);
    long first = m == null ? -1 : Long.parseLong(m.group(1));
    long last = m == null ? -1 : Long.parseLong(m.group(2));
    return new ComponentInfo(name(c, m), first + 1, last + 1, fileBytes, entries(c, fileBytes),
        pages, NO_KEY, NO_KEY);
  }

  private long pageSize() {
    return index instanceof AbstractLSMIndex
        ? ((AbstractLSMIndex) index).getBufferCache().getPageSize() : 0;
  }

  private static long entries(ILSMDiskComponent c, long size) {
    if (c instanceof AbstractLSMWithBloomFilterDiskComponent) {
      try {
        return ((AbstractLSMWithBloomFilterDiskComponent) c).getBloomFilter().getNumElements();
      } catch (HyracksDataException | RuntimeException e) {
        return size;
      }
    }
    return size;
  }

  /** The component's sequence name {@code S_E}, from its files. */
  static String name(ILSMDiskComponent c) {
    return name(c, match(c));
  }

  private static String name(ILSMDiskComponent c, Matcher m) {
    return m == null ? "component-" + System.identityHashCode(c) : m.group(1) + "_" + m.group(2);
  }

  private static Matcher match(ILSMDiskComponent c) {
    for (String path : c.getLSMComponentPhysicalFiles()) {
      String file = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
      Matcher m = SEQUENCE.matcher(file);
      if (m.matches()) {
        return m;
      }
    }
    return null;
  }
}
