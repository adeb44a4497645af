package org.strata.lsm.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.wal.LogOp;

/**
 * TRIAD-MEM (Balmau et al., ATC 2017, section 4.1, Algorithm 1): at the seal of a full memory
 * component, keeps its hot keys in memory. Runs inside {@link MemoryComponents#seal}, under the
 * exclusive switch lock (no write runs meanwhile), after the log has rolled to a new segment:
 *
 * <ol>
 *   <li>if the newest versions of the sealed component's keys occupy less than the flush
 *       threshold, every key is hot (the paper's FLUSH_TH: no level-0 component is created);
 *       otherwise the configured {@link org.strata.lsm.config.HotKeySelector} picks them from the
 *       update counters;
 *   <li>the newest version of each hot key is appended to the log again, in the new segment, with
 *       new sequence numbers (above every write of the sealed component and below every later
 *       write), and inserted into the new active component with its counter at 0;
 *   <li>the sealed component records them as carried out, so its flush writes only the cold keys
 *       (or, if none is cold, installs no component at all).
 * </ol>
 *
 * <p>Crash safety (docs/format.md, "TRIAD-MEM and the log"): before the flush's manifest lists
 * the sealed component's last sequence number as flushed (from then on recovery skips the old
 * segment), the engine forces the log up to the last re-logged record ({@link #relogged()}),
 * whatever the durability, so every hot key's newest version is either replayed from the old
 * segment or durable in the new one.
 */
final class TriadMem {
  /** Entries per re-log record, so that no record grows without bound. */
  private static final int OPS_PER_RECORD = 1024;

  /** Where re-logged entries go: appends one record, returns the LSN of its last operation. */
  interface Log {
    long append(List<LogOp> ops);
  }

  /** What a carry did, for the statistics. */
  record Carried(int entries, long bytes, boolean all) {}

  private final TriadConfig config;
  private final long memorySize;
  private final Consumer<Carried> counters;
  private volatile long relogged;

  /**
   * @param memorySize the memtable's bytes ({@code memory-component.live-size}, else {@code
   *     size}): the hot set and the flush threshold are sized from it
   * @param counters told of every carry that moved something, under the tree lock
   */
  TriadMem(TriadConfig config, long memorySize, Consumer<Carried> counters) {
    this.config = config;
    this.memorySize = memorySize;
    this.counters = counters;
  }

  /**
   * The LSN of the last re-logged entry (0 if none): a flush forces the log to it before its
   * manifest lists the sealed component as flushed.
   */
  long relogged() {
    return relogged;
  }

  /**
   * Carries the hot keys of {@code sealed} into {@code fresh}, re-logging them through {@code
   * log}. Caller holds the exclusive switch lock; {@code sealed} is sealed and {@code fresh} empty.
   */
  Carried carry(MemoryComponent sealed, MemoryComponent fresh, Log log) {
    int[] counts = sealed.updateCounts();
    if (counts.length == 0) {
      return new Carried(0, 0, false);
    }
    long live = sealed.liveBytes();
    boolean all = live < config.flushThresholdBytes(memorySize);
    boolean[] hot;
    if (all) {
      hot = new boolean[counts.length];
      Arrays.fill(hot, true);
    } else {
      // above-mean takes no K from hot-percent (section 4.1 has none), only from hot-keys
      long k = config.hotSelector() == HotKeySelector.ABOVE_MEAN && config.hotKeys() == null
          ? Long.MAX_VALUE : config.hotKeyCount(memorySize, (double) live / counts.length);
      hot = config.hotSelector().select(counts, k);
    }
    List<MemoryComponent.Entry> entries = sealed.newest(hot);
    if (entries.isEmpty()) {
      return new Carried(0, 0, false);
    }
    List<byte[]> keys = new ArrayList<>(entries.size());
    long bytes = 0;
    for (int from = 0; from < entries.size(); from += OPS_PER_RECORD) {
      List<MemoryComponent.Entry> part =
          entries.subList(from, Math.min(entries.size(), from + OPS_PER_RECORD));
      List<LogOp> ops = new ArrayList<>(part.size());
      for (MemoryComponent.Entry e : part) {
        ops.add(new LogOp(e.key(), e.value()));
      }
      long last = log.append(ops);
      long lsn = last - ops.size() + 1;
      for (MemoryComponent.Entry e : part) {
        fresh.carry(e.key(), e.value(), lsn++);
        keys.add(e.key());
        bytes += e.key().length + (e.value() == null ? 0 : e.value().length);
      }
      relogged = last;
    }
    sealed.carriedOut(keys);
    Carried c = new Carried(entries.size(), bytes, entries.size() == counts.length);
    counters.accept(c);
    return c;
  }
}
