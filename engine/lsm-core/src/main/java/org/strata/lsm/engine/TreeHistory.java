package org.strata.lsm.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StallCause;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.metrics.HistoryFile;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * Appends an index's events to its {@code HISTORY} file ({@link HistoryFile}; docs/format.md,
 * "History"): the open, each flush, merge and move with its inputs and outputs and the runs it
 * left, each write stall with its cause and duration, and the close. {@code strata lsm} replays
 * it.
 *
 * <p>A version's line is written by the thread that installed it, under {@link VersionSet}'s
 * manifest lock, so lines follow the order of versions. A stall is noted by the writer that ends
 * it (under the tree or group lock, where no I/O may happen) and written with the next line. The
 * file is a record, not the index's state: it is not forced, and a failure to write it is logged
 * once and stops the history until the next open, never a write or a flush. Thread-safe.
 */
final class TreeHistory {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final FileIo io;
  private final Clock clock;
  private final Logger log;
  private final long rollBytes;
  private final ConcurrentLinkedQueue<ObjectNode> stalls = new ConcurrentLinkedQueue<>();
  @GuardedBy("this")
  private WritableFile file;
  @GuardedBy("this")
  private long size;
  @GuardedBy("this")
  private boolean failed;

  TreeHistory(Path dir, FileIo io, Clock clock, Logger log) {
    this(dir, io, clock, log, HistoryFile.ROLL_BYTES);
  }

  /** As above, rolling over at {@code rollBytes} (tests). */
  TreeHistory(Path dir, FileIo io, Clock clock, Logger log, long rollBytes) {
    this.rollBytes = rollBytes;
    this.dir = dir;
    this.io = io;
    this.clock = clock;
    this.log = log;
  }

  /** The open, with the runs recovered. */
  void opened(RunList runs) {
    append(event("open"), runs);
  }

  /** A flush of memory component {@code memoryComponentId} into {@code outputs} (none: retired). */
  void flushed(long memoryComponentId, List<ComponentInfo> outputs, RunList after) {
    ObjectNode e = event(outputs.isEmpty() ? "retire" : "flush");
    e.put("memory", memoryComponentId);
    ArrayNode out = e.putArray("out");
    outputs.forEach(c -> out.add(c.name()));
    append(e, after);
  }

  /**
   * A merge or move: {@code inputs} as the run list before it named them, {@code outputs} its
   * new components, {@code record} its timing (null for a move).
   */
  void merged(MergeRequest request, List<String> inputs, List<ComponentInfo> outputs,
      MergeRecord record, RunList after) {
    ObjectNode e = event(request instanceof MergeRequest.Move ? "move" : "merge");
    ArrayNode in = e.putArray("in");
    inputs.forEach(in::add);
    ArrayNode out = e.putArray("out");
    outputs.forEach(c -> out.add(c.name()));
    e.put("level", request.outputLevel());
    if (record != null) {
      e.put("start", record.startMillis());
      e.put("ms", record.endMillis() - record.startMillis());
    }
    append(e, after);
  }

  /**
   * A write stall of {@code nanos} that ended now, for {@code cause}. Kept in memory (the caller
   * holds a lock under which no I/O may happen) and written before the next line.
   */
  void stalled(StallCause cause, long nanos) {
    ObjectNode e = JSON.createObjectNode();
    e.put("t", clock.currentTimeMillis() - nanos / 1_000_000);
    e.put("event", "stall");
    e.put("cause", cause.jsonName());
    e.put("ms", nanos / 1e6);
    stalls.add(e);
  }

  /** The close, with the runs left; then releases the file. */
  void closed(RunList runs) {
    append(event("close"), runs);
    synchronized (this) {
      release();
    }
  }

  /** Releases the file without a line: the open was refused after this tree had started. */
  synchronized void abandoned() {
    release();
  }

  private ObjectNode event(String kind) {
    ObjectNode e = JSON.createObjectNode();
    e.put("t", clock.currentTimeMillis());
    e.put("event", kind);
    return e;
  }

  private void append(ObjectNode e, RunList runs) {
    ArrayNode rs = e.putArray("runs");
    for (RunInfo r : runs.runs()) {
      ObjectNode run = rs.addObject();
      run.put("level", r.level());
      ArrayNode files = run.putArray("files");
      for (ComponentInfo c : r.components()) {
        files.addArray().add(c.name()).add(c.minComponentId()).add(c.maxComponentId())
            .add(c.sizeBytes()).add(c.entryCount());
      }
    }
    synchronized (this) {
      if (failed) {
        return;
      }
      try {
        for (ObjectNode s; (s = stalls.poll()) != null; ) {
          write(HistoryFile.frame(s.toString()));
        }
        write(HistoryFile.frame(e.toString()));
      } catch (IOException | RuntimeException ex) {
        failed = true;
        release();
        log.warn("cannot write the history of {} ({}); it stops until the next open, and"
            + " nothing else is affected", dir, ex.toString());
      }
    }
  }

  @GuardedBy("this")
  private void write(byte[] line) throws IOException {
    if (file == null) {
      Path p = dir.resolve(HistoryFile.NAME);
      boolean exists = Files.exists(p);
      size = exists ? Files.size(p) : 0;
      file = exists ? io.append(p) : io.create(p);
    }
    if (size > 0 && size + line.length > rollBytes) {
      release();
      io.rename(dir.resolve(HistoryFile.NAME), dir.resolve(HistoryFile.PREVIOUS));
      size = 0;
      file = io.create(dir.resolve(HistoryFile.NAME));
    }
    file.write(ByteBuffer.wrap(line));
    size += line.length;
  }

  @GuardedBy("this")
  private void release() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException e) {
        log.warn("cannot close the history of {}: {}", dir, e.toString());
      }
      file = null;
    }
  }
}
