package org.strata.lsm.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.ReadAheadBuffer;
import org.strata.lsm.component.SequentialLeafScanner;
import org.strata.lsm.events.MergeEvent;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.RepeatedFailures;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeRequest;

/**
 * A merge of contiguous runs into one run: a k-way merge of sequential scans of the inputs that
 * keeps the newest version of each key, drops anti-matter when the inputs include the index's
 * oldest run, and writes files of at most the target size through the store's throttle. It can be
 * paused between entries, cancelled (when the index closes) and reports its remaining input
 * pages. Its inputs are retained from construction until it finishes or is abandoned. It reaches
 * its index only through {@link Host}.
 *
 * <p>Threads. {@link #pause()}, {@link #resume()} and {@link #cancel()} come from other threads;
 * the merge checks the volatile flags between entries and sleeps on {@code pauseLock} (signalled by
 * resume and cancel) while paused.
 */
final class MergeOperation implements IoOperation {
  private static final Logger LOG = LogManager.getLogger(MergeOperation.class);

  /** What a merge needs from its index (implemented by {@link MergeCoordinator}). */
  interface Host {
    /** The index's name, for logs and schedulers. */
    String name();

    /** Allocates a component file number for an output. */
    long newFileNumber();

    /** Installs a finished merge: its inputs are replaced by {@code outputs} (maybe none). */
    void completed(MergeOperation op, List<DiskComponent> outputs, MergeRecord record);

    /** A merge failed or was cancelled; its inputs stay as they are. */
    void abandoned(MergeOperation op, MergeRecord record);

    /** The last call of every merge, successful or not. */
    void finished(MergeOperation op, boolean success);

    /** Failures of the index's merges, logged once per distinct error. */
    RepeatedFailures failures();
  }

  private final Host tree;
  private final ComponentFiles files;
  private final MergeRequest request;
  private final List<Run> inputs;
  private final int outputLevel;
  private final long targetFileSize;
  private final boolean dropAntimatter;
  private final Clock clock;
  private final long totalInputPages;
  private final AtomicBoolean started = new AtomicBoolean();
  private final Object pauseLock = new Object();
  private volatile boolean paused;
  private volatile boolean cancelled;
  private volatile long pagesConsumed;
  private long pausedNanos;

  /**
   * @param request what the policy asked for; the run list applies it when the merge completes
   * @param inputs the runs the request reads (for a partitioned merge, the chosen files of each)
   * @param dropAntimatter whether the inputs include the oldest data of their key range
   */
  MergeOperation(Host tree, ComponentFiles files, MergeRequest request, List<Run> inputs,
      boolean dropAntimatter, Clock clock) {
    this.tree = tree;
    this.files = files;
    this.request = request;
    this.inputs = List.copyOf(inputs);
    this.outputLevel = request.outputLevel();
    this.targetFileSize = request.targetFileSize();
    this.dropAntimatter = dropAntimatter;
    this.clock = clock;
    long pages = 0;
    for (Run r : this.inputs) {
      pages += r.leafPages();
      r.components().forEach(DiskComponent::retain);
    }
    this.totalInputPages = pages;
  }

  List<Run> inputs() {
    return inputs;
  }

  /** What the policy asked for: whole runs, or chosen files of runs (a partitioned merge). */
  MergeRequest request() {
    return request;
  }

  @Override
  public Kind kind() {
    return Kind.MERGE;
  }

  @Override
  public String indexName() {
    return tree.name();
  }

  @Override
  public long totalInputPages() {
    return totalInputPages;
  }

  @Override
  public long remainingInputPages() {
    return Math.max(0, totalInputPages - pagesConsumed);
  }

  /**
   * Input bytes not read yet: the inputs' file bytes times the share of input pages still to
   * read (all of them before the merge starts, none once it has read its last page).
   */
  long remainingInputBytes() {
    long total = totalInputPages;
    if (total <= 0) {
      return 0;
    }
    long bytes = 0;
    for (Run r : inputs) {
      bytes += r.sizeBytes();
    }
    return (long) ((double) bytes * remainingInputPages() / total);
  }

  @Override
  public void pause() {
    synchronized (pauseLock) {
      paused = true;
    }
  }

  @Override
  public void resume() {
    synchronized (pauseLock) {
      paused = false;
      pauseLock.notifyAll();
    }
  }

  /** Stops the merge at its next entry (the index is closing); wakes it if paused. */
  void cancel() {
    synchronized (pauseLock) {
      cancelled = true;
      pauseLock.notifyAll();
    }
  }

  /** Thrown inside the merge loop when the store closes. */
  private static final class Cancelled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Cancelled() {
      super("store closing", null, false, false);
    }
  }

  private void checkpoint() {
    if (!paused) {
      return;
    }
    synchronized (pauseLock) {
      if (paused) {
        long t0 = clock.nanoTime();
        while (paused && !cancelled) {
          try {
            pauseLock.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Cancelled();
          }
        }
        pausedNanos += clock.nanoTime() - t0;
      }
    }
  }

  @Override
  public void run() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("a merge runs only once");
    }
    // A device model serves a merge's reads and writes after everything else.
    org.strata.lsm.io.IoClass.runAs(org.strata.lsm.io.IoClass.MERGE, this::runMerge);
  }

  private void runMerge() {
    long startMillis = clock.currentTimeMillis();
    List<ComponentFiles.Output> written = new ArrayList<>();
    List<DiskComponent> outputs = new ArrayList<>();
    int inputComponents = 0;
    int levelZeroInputs = 0;
    for (Run r : inputs) {
      inputComponents += r.components().size();
      levelZeroInputs += r.level() == 0 ? r.components().size() : 0;
    }
    MergeEvent event = new MergeEvent();
    event.begin();
    boolean success = false;
    String outcome = "aborted"; // unless it completes, is cancelled or fails with an exception
    long outPages = 0;
    long outBytes = 0;
    try {
      if (cancelled) {
        throw new Cancelled();
      }
      LOG.info("merge started: {} components ({} pages) of {}", inputComponents,
          totalInputPages, tree.name());
      outPages = merge(written, outputs);
      for (DiskComponent c : outputs) {
        outBytes += c.sizeBytes();
      }
      MergeRecord rec = new MergeRecord(startMillis, clock.currentTimeMillis(),
          pausedNanos, inputComponents, levelZeroInputs, totalInputPages, outPages, outBytes,
              outputLevel, "ok");
      tree.completed(this, outputs, rec);
      success = true;
      outcome = "ok";
      tree.failures().succeeded();
      LOG.info("merge finished: {} components ({} pages) of {} into {} file(s), {} bytes, level {}",
          inputComponents, totalInputPages, tree.name(), outputs.size(), outBytes, outputLevel);
    } catch (Cancelled e) {
      outcome = "cancelled";
    } catch (IOException | RuntimeException e) {
      outcome = "failed: " + e;
      tree.failures().failed(e, "its inputs stay in place (a repeat of the same error is"
          + " only counted)");
    } finally {
      if (!success) {
        for (DiskComponent c : outputs) {
          c.markObsolete();
          c.release();
        }
        for (ComponentFiles.Output o : written) {
          o.discard();
        }
        tree.abandoned(this, new MergeRecord(startMillis, clock.currentTimeMillis(),
            pausedNanos, inputComponents, levelZeroInputs, pagesConsumed, outPages, outBytes,
                outputLevel,
            outcome));
      }
      releaseInputs();
      if (event.shouldCommit()) {
        event.store = tree.name();
        event.inputComponents = inputComponents;
        event.levelZeroInputs = levelZeroInputs;
        event.inputPages = totalInputPages;
        event.outputFiles = success ? outputs.size() : 0;
        event.outputBytes = outBytes;
        event.outputLevel = outputLevel;
        event.outcome = outcome;
        event.commit();
      }
      tree.finished(this, success);
    }
  }

  /** Releases the inputs of a merge the scheduler dropped without running. */
  void abandonUnstarted() {
    if (started.compareAndSet(false, true)) {
      tree.abandoned(this, new MergeRecord(clock.currentTimeMillis(),
          clock.currentTimeMillis(), 0, 0, 0, 0, 0, 0, outputLevel, "cancelled"));
      releaseInputs();
      tree.finished(this, false);
    }
  }

  private void releaseInputs() {
    for (Run r : inputs) {
      r.components().forEach(DiskComponent::release);
    }
  }

  private long merge(List<ComponentFiles.Output> written, List<DiskComponent> outputs)
      throws IOException {
    List<SequentialLeafScanner> scanners = new ArrayList<>();
    List<EntryCursor> sources = inputCursors(scanners);
    long minId = Long.MAX_VALUE;
    long maxId = Long.MIN_VALUE;
    long maxLsn = 0;
    for (Run r : inputs) {
      for (DiskComponent c : r.components()) {
        minId = Math.min(minId, c.meta().minComponentId());
        maxId = Math.max(maxId, c.meta().maxComponentId());
        maxLsn = Math.max(maxLsn, c.meta().maxLsn());
      }
    }
    long pages = 0;
    ComponentFiles.Output out = null;
    // A routed merge cuts its output at the routes' keys (a new file per route) and sizes each
    // route's files by the route's target; other merges have one route.
    MergeRequest.Routed routed = request instanceof MergeRequest.Routed r ? r : null;
    int route = 0;
    long target = routed == null ? targetFileSize : routed.routes().get(0).targetFileSize();
    // A routed merge drops anti-matter route by route (below), where the route allows it.
    try (MergingCursor cursor = new MergingCursor(sources, dropAntimatter && routed == null)) {
      long entries = 0;
      while (cursor.next()) {
        checkpoint(); // a paused merge stops within one entry, so within one page
        if (cancelled) {
          throw new Cancelled();
        }
        if ((++entries & 7) == 0) {
          notePagesConsumed(scanners);
        }
        if (routed != null) {
          int at = routed.routeOf(cursor.key());
          if (at != route) {
            route = at;
            target = routed.routes().get(at).targetFileSize();
            if (out != null) {
              out.finish();
              pages += out.pageCount();
              out = null;
            }
          }
          if (cursor.isAntimatter() && dropAntimatter
              && routed.routes().get(route).dropAntimatter()) {
            continue;
          }
        }
        if (out == null) {
          out = files.create(tree.newFileNumber(), minId, maxId, maxLsn,
              routed == null ? outputLevel : routed.routes().get(route).outputLevel(), false);
          written.add(out);
        }
        out.addCurrent(cursor.key(), cursor); // the value straight from its input's read buffer
        if (out.bytesProduced() >= target) {
          out.finish();
          pages += out.pageCount();
          out = null;
        }
      }
      if (out != null) {
        out.finish();
        pages += out.pageCount();
        out = null;
      }
    }
    pagesConsumed = totalInputPages;
    for (ComponentFiles.Output o : written) {
      outputs.add(o.install());
    }
    return pages;
  }

  /**
   * One cursor per input run, over its components in order; each component's scanner is added to
   * {@code scanners} when the cursor opens it.
   */
  private List<EntryCursor> inputCursors(List<SequentialLeafScanner> scanners) {
    List<EntryCursor> sources = new ArrayList<>();
    for (Run r : inputs) {
      // one read buffer per run: its components are read one after another (a run of many
      // files would otherwise allocate a buffer of a whole G1 region per file)
      ReadAheadBuffer readAhead = new ReadAheadBuffer();
      sources.add(new ConcatCursor(r.components(), c -> {
        SequentialLeafScanner s = c.sequentialScan(readAhead);
        scanners.add(s);
        return s;
      }));
    }
    return sources;
  }

  /** Publishes the input pages the scanners have read so far (progress). */
  private void notePagesConsumed(List<SequentialLeafScanner> scanners) {
    long consumed = 0;
    for (SequentialLeafScanner s : scanners) {
      consumed += s.pagesRead();
    }
    pagesConsumed = consumed;
  }

  @Override
  public String toString() {
    return "merge of " + inputs.size() + " runs of " + tree.name() + " (" + remainingInputPages()
        + "/" + totalInputPages + " pages left)";
  }
}
