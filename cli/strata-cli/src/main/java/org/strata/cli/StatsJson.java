package org.strata.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.spi.RunInfo;

/** The JSON form of a store's statistics, as {@code strata stats --json} prints it. */
final class StatsJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private StatsJson() {}

  static ObjectNode of(StoreStats s, List<RunInfo> runs) {
    return of(s, runs, org.strata.lsm.io.DeviceCounters.NONE);
  }

  /** As {@link #of(StoreStats, List)}, with what the store's device model served, if any. */
  static ObjectNode of(StoreStats s, List<RunInfo> runs, org.strata.lsm.io.DeviceCounters d) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("diskComponents", s.diskComponents());
    o.put("runs", s.runs());
    o.put("entries", s.entries());
    o.put("diskEntries", s.diskEntries());
    o.put("memoryEntries", s.memoryEntries());
    o.put("userBytes", s.userBytes());
    o.put("userBytesFlushed", s.userBytesFlushed());
    o.put("bytesFlushed", s.bytesFlushed());
    o.put("bytesMerged", s.bytesMerged());
    o.put("flushes", s.flushes());
    o.put("merges", s.merges());
    o.put("writeAmplification", s.writeAmplification());
    o.put("modelWriteAmplification", s.modelWriteAmplification());
    o.put("diskBytes", s.diskBytes());
    o.put("pendingMergeBytes", s.pendingMergeBytes());
    ObjectNode stalls = o.putObject("stalls");
    for (StallCause c : StallCause.values()) {
      StoreStats.StallTotals t = s.stalls().get(c);
      ObjectNode n = stalls.putObject(c.jsonName());
      n.put("count", t.count());
      n.put("seconds", t.seconds());
    }
    if (d.present()) {
      ObjectNode dev = o.putObject("device");
      dev.put("name", d.name());
      for (org.strata.lsm.io.IoClass c : org.strata.lsm.io.IoClass.values()) {
        ObjectNode n = dev.putObject(c.name().toLowerCase(java.util.Locale.ROOT));
        n.put("bytesWritten", d.written(c));
        n.put("bytesRead", d.read(c));
        n.put("forces", d.forces(c));
        n.put("deviceSeconds", d.busyNanos(c) / 1e9);
        n.put("waitSeconds", d.waitNanos(c) / 1e9);
      }
    }
    ArrayNode rl = o.putArray("runList");
    for (RunInfo r : runs) {
      ObjectNode n = rl.addObject();
      n.put("level", r.level());
      n.put("components", r.components().size());
      n.put("bytes", r.sizeBytes());
      n.put("entries", r.entryCount());
      n.put("minComponentId", r.minComponentId());
      n.put("maxComponentId", r.maxComponentId());
    }
    ObjectNode byLevel = o.putObject("mergesByLevel"); // the compaction-stats table's levels
    s.mergesByLevel().forEach((level, m) -> {
      ObjectNode n = byLevel.putObject(Integer.toString(level));
      n.put("merges", m.merges());
      n.put("bytesRead", m.bytesRead());
      n.put("bytesWritten", m.bytesWritten());
      n.put("seconds", m.seconds());
    });
    durations(o.putObject("flushDurations"), s.flushDurations());
    durations(o.putObject("mergeDurations"), s.mergeDurations());
    ArrayNode ml = o.putArray("mergeLog");
    List<MergeRecord> log = s.mergeLog();
    for (MergeRecord m : log.subList(Math.max(0, log.size() - 20), log.size())) {
      ObjectNode n = ml.addObject();
      n.put("startMillis", m.startMillis());
      n.put("endMillis", m.endMillis());
      n.put("pausedSeconds", m.pausedNanos() / 1e9);
      n.put("inputComponents", m.inputComponents());
      n.put("levelZeroInputs", m.levelZeroInputs());
      n.put("inputPages", m.inputPages());
      n.put("outputPages", m.outputPages());
      n.put("outputBytes", m.outputBytes());
      n.put("outputLevel", m.outputLevel());
      n.put("outcome", m.outcome());
    }
    ByteCounters b = s.bytes();
    ObjectNode bytes = o.putObject("bytes"); // what TRIAD and IAM reproductions need
    bytes.put("userBytes", b.userBytes());
    bytes.put("logBytes", b.logBytes());
    bytes.put("reloggedEntries", b.reloggedEntries());
    bytes.put("reloggedBytes", b.reloggedBytes());
    bytes.put("flushesSkipped", b.flushesSkipped());
    bytes.put("flushDataBytes", b.flushDataBytes());
    bytes.put("flushIndexBytes", b.flushIndexBytes());
    bytes.put("flushLogBytes", b.flushLogBytes());
    ObjectNode perLevel = bytes.putObject("mergeBytesByLevel");
    b.mergeBytesByLevel().forEach((level, n) -> perLevel.put(Integer.toString(level), n));
    o.put("pageCacheHits", s.pageCacheHits());
    o.put("pageCacheMisses", s.pageCacheMisses());
    if (s.backgroundError() != null) {
      o.put("backgroundError", s.backgroundError()); // only when writes are stopped by one
    }
    return o;
  }

  /** A duration histogram: count, sum and the count of each bucket by its upper bound. */
  private static void durations(ObjectNode n, org.strata.lsm.DurationHistogram h) {
    n.put("count", h.count());
    n.put("sumSeconds", h.sumSeconds());
    ObjectNode b = n.putObject("buckets");
    for (int i = 0; i < h.counts().size(); i++) {
      b.put(i < h.bounds().size() ? "le" + h.bounds().get(i) : "above", h.counts().get(i));
    }
  }
}
