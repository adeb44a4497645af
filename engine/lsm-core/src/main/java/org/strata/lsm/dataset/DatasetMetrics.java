package org.strata.lsm.dataset;

import java.util.LinkedHashMap;
import java.util.Map;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.metrics.PrometheusExposition;

/**
 * A dataset's metrics in the Prometheus text format: each tree's, labelled {@code dataset},
 * {@code partition} and {@code index}, and the dataset's I/O budget and memory-full stalls,
 * labelled {@code dataset}; read from the engine's statistics when asked.
 */
public final class DatasetMetrics {
  private DatasetMetrics() {}

  /** The exposition of {@code dataset} now. */
  public static String of(Dataset dataset) {
    PrometheusExposition e = new PrometheusExposition();
    String name = dataset.directory().getFileName() == null ? dataset.directory().toString()
        : dataset.directory().getFileName().toString();
    for (int p = 0; p < dataset.partitionCount(); p++) {
      for (String index : dataset.indexNames()) {
        Map<String, String> l = PrometheusExposition.labels("dataset", name);
        l.put("partition", Integer.toString(p));
        l.put("index", index);
        e.tree(l, dataset.tree(p, index).stats(), dataset.tree(p, index).runs());
      }
    }
    Map<String, String> ds = PrometheusExposition.labels("dataset", name);
    dataset.memoryStalls().forEach((cause, t) -> {
      Map<String, String> l = new LinkedHashMap<>(ds);
      l.put("cause", cause.jsonName());
      e.add("strata_dataset_stalls_total", "counter",
          "Write stalls of the dataset's writers by cause (memoryFull: the partition's memory"
              + " components were all full)", l, t.count());
      e.add("strata_dataset_stall_seconds_total", "counter",
          "Seconds the dataset's writers spent stalled, by cause", l, t.seconds());
    });
    IoBudgetCounters io = dataset.ioBudgetCounters();
    e.add("strata_io_flush_bytes_admitted_total", "counter",
        "Bytes the I/O budget admitted to flushes", ds, io.flushBytesAdmitted());
    e.add("strata_io_merge_bytes_admitted_total", "counter",
        "Bytes the I/O budget admitted to merges", ds, io.mergeBytesAdmitted());
    e.add("strata_io_wait_seconds_total", "counter",
        "Seconds flushes and merges slept waiting for the I/O budget", ds, io.waitNanos() / 1e9);
    e.add("strata_io_discarded_bytes_total", "counter",
        "I/O budget that accrued into a full bucket with nobody asking for it", ds,
        io.discardedBytes());
    return e.text();
  }
}
