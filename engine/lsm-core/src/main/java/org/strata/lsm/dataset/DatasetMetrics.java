package org.strata.lsm.dataset;

import java.util.LinkedHashMap;
import java.util.Map;
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
    e.ioBudget(ds, dataset.ioBudgetCounters());
    return e.text();
  }
}
