package org.strata.lsm.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.strata.lsm.DurationHistogram;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.spi.RunInfo;

/**
 * A store's metrics in the Prometheus text exposition format (version 0.0.4), and the writer a
 * dataset's use ({@code org.strata.lsm.dataset.DatasetMetrics}, what {@code feed-server
 * --metrics-port} serves at {@code /metrics}). Every figure is read from the engine's own
 * statistics (a store's {@code stats()} and {@code runs()}, the dataset's throttle counters)
 * when the exposition is made, the same figures {@code strata stats --json}
 * prints: there is no second bookkeeping. Names are stable; docs/observing.md lists them.
 *
 * <p>A small writer of the text format rather than a metrics library: the figures are already
 * counted by the engine, so a registry would only copy them, and the format is a few lines.
 */
public final class PrometheusExposition {
  /** One metric family: its samples, in the order they were added. */
  private record Family(String type, String help, List<String> samples) {}

  private final Map<String, Family> families = new LinkedHashMap<>();

  /** An empty exposition; add trees and samples, then take its {@link #text()}. */
  public PrometheusExposition() {}

  /**
   * The metrics of one store, labelled {@code store="<name>"}, from its {@code stats()} and {@code
   * runs()}.
   */
  public static String of(String name, StoreStats stats, List<RunInfo> runs) {
    PrometheusExposition e = new PrometheusExposition();
    e.tree(labels("store", name), stats, runs);
    return e.text();
  }

  /** Labels with one pair, in an order-keeping map to add more to. */
  public static Map<String, String> labels(String k, String v) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(k, v);
    return m;
  }

  /** Adds the samples of one tree (a store, or one index of one partition), labelled {@code l}. */
  public void tree(Map<String, String> l, StoreStats s, List<RunInfo> runs) {
    add("strata_disk_components", "gauge", "Disk component files", l, s.diskComponents());
    add("strata_runs", "gauge", "Sorted runs", l, s.runs());
    add("strata_disk_bytes", "gauge", "Bytes of the disk component files", l, s.diskBytes());
    add("strata_disk_entries", "gauge",
        "Entries in disk components (anti-matter and obsolete versions included)", l,
        s.diskEntries());
    add("strata_memory_entries", "gauge", "Distinct keys in memory components", l,
        s.memoryEntries());
    add("strata_user_bytes_total", "counter",
        "Key and value bytes of every write accepted", l, s.userBytes());
    add("strata_user_bytes_flushed_total", "counter",
        "Key and value bytes of the writes flushes have made durable in components", l,
        s.userBytesFlushed());
    add("strata_flush_bytes_total", "counter", "Bytes written by flushes", l, s.bytesFlushed());
    add("strata_merge_bytes_total", "counter", "Bytes written by merges", l, s.bytesMerged());
    add("strata_flushes_total", "counter", "Flushes completed", l, s.flushes());
    add("strata_merges_total", "counter", "Merges completed", l, s.merges());
    add("strata_write_amplification", "gauge",
        "(flushed + merged bytes) / user bytes flushed", l, s.writeAmplification());
    add("strata_pending_merge_bytes", "gauge",
        "Input bytes that scheduled merges have not read yet", l, s.pendingMergeBytes());
    for (StallCause c : StallCause.values()) {
      StallTotals t = s.stalls().getOrDefault(c, new StallTotals(0, 0));
      Map<String, String> lc = new LinkedHashMap<>(l);
      lc.put("cause", c.jsonName());
      add("strata_stalls_total", "counter", "Write stalls that started, by cause", lc,
          t.count());
      add("strata_stall_seconds_total", "counter",
          "Seconds writers spent stalled, by cause (an ongoing stall counted so far)", lc,
          t.seconds());
    }
    add("strata_stalled", "gauge", "1 while a writer is waiting", l, s.stalledNow() ? 1 : 0);
    add("strata_page_cache_hits_total", "counter", "Page cache hits", l, s.pageCacheHits());
    add("strata_page_cache_misses_total", "counter", "Page cache misses", l,
        s.pageCacheMisses());
    add("strata_background_error", "gauge",
        "1 while a background flush's error stops writes", l, s.backgroundError() == null ? 0 : 1);
    histogram("strata_flush_duration_seconds",
        "Seconds each flush took since the store was opened, from holding the log to its durable"
            + " manifest", l, s.flushDurations());
    histogram("strata_merge_duration_seconds",
        "Seconds each merge completed since the store was opened took, scheduler pauses included",
        l, s.mergeDurations());
    LevelTotals.of(runs).forEach((level, t) -> {
      Map<String, String> ll = new LinkedHashMap<>(l);
      ll.put("level", Integer.toString(level));
      add("strata_level_runs", "gauge", "Sorted runs per level", ll, t.runs());
      add("strata_level_components", "gauge", "Disk components per level", ll, t.components());
      add("strata_level_bytes", "gauge", "Bytes of the disk components per level", ll,
          t.bytes());
    });
  }

  /**
   * Adds a sample of family {@code name} ({@code type} {@code counter} or {@code gauge}; a
   * counter's name ends in {@code _total}), described by {@code help} at its first sample.
   */
  public void add(String name, String type, String help, Map<String, String> l, double v) {
    families.computeIfAbsent(name, k -> new Family(type, help, new ArrayList<>()))
        .samples().add(name + labelText(l) + " " + number(v));
  }

  /** Adds the samples of an I/O budget's counters, labelled {@code l}. */
  public void ioBudget(Map<String, String> l, IoBudgetCounters io) {
    add("strata_io_flush_bytes_admitted_total", "counter",
        "Bytes the I/O budget admitted to flushes", l, io.flushBytesAdmitted());
    add("strata_io_merge_bytes_admitted_total", "counter",
        "Bytes the I/O budget admitted to merges", l, io.mergeBytesAdmitted());
    add("strata_io_wait_seconds_total", "counter",
        "Seconds flushes and merges slept waiting for the I/O budget", l, io.waitNanos() / 1e9);
    add("strata_io_discarded_bytes_total", "counter",
        "I/O budget that accrued into a full bucket with nobody asking for it", l,
        io.discardedBytes());
  }

  /** A histogram family: cumulative {@code _bucket} samples by {@code le}, then sum and count. */
  private void histogram(String name, String help, Map<String, String> l, DurationHistogram h) {
    Family f = families.computeIfAbsent(name, k -> new Family("histogram", help,
        new ArrayList<>()));
    long cumulative = 0;
    for (int i = 0; i <= h.bounds().size(); i++) {
      cumulative += h.counts().get(i);
      Map<String, String> lb = new LinkedHashMap<>(l);
      lb.put("le", i < h.bounds().size() ? number(h.bounds().get(i)) : "+Inf");
      f.samples().add(name + "_bucket" + labelText(lb) + " " + cumulative);
    }
    f.samples().add(name + "_sum" + labelText(l) + " " + number(h.sumSeconds()));
    f.samples().add(name + "_count" + labelText(l) + " " + cumulative);
  }

  private static String labelText(Map<String, String> l) {
    if (l.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    l.forEach((k, v) -> parts.add(k + "=\"" + v.replace("\\", "\\\\").replace("\"", "\\\"")
        .replace("\n", "\\n") + "\""));
    return "{" + String.join(",", parts) + "}";
  }

  private static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%s", v);
  }

  /** The exposition: each family's HELP and TYPE lines, then its samples. */
  public String text() {
    StringBuilder b = new StringBuilder();
    families.forEach((name, f) -> {
      b.append("# HELP ").append(name).append(' ').append(f.help()).append('\n');
      b.append("# TYPE ").append(name).append(' ').append(f.type()).append('\n');
      f.samples().forEach(s -> b.append(s).append('\n'));
    });
    return b.toString();
  }
}
