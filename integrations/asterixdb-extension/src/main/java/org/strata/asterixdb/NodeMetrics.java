package org.strata.asterixdb;

import java.util.List;
import java.util.Map;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.strata.lsm.metrics.PrometheusExposition;

/**
 * The Strata metrics of an AsterixDB cluster's node controllers in this process, in Prometheus'
 * text format: each open user index's disk components now (AsterixDB's own), the flushes and
 * merges Strata's schedulers ran for it, each scheduler's merge and failure counts, and each node's
 * Strata I/O budget where one is set. Read from the nodes when asked, as {@code strata asterixdb
 * start --metrics-port} serves them.
 */
public final class NodeMetrics {
  private NodeMetrics() {}

  /** The exposition of {@code nodes} now. */
  public static String of(List<NodeControllerService> nodes) {
    PrometheusExposition e = new PrometheusExposition();
    for (NodeControllerService nc : nodes) {
      if (!(nc.getApplication() instanceof StrataNCApplication app)) {
        continue;
      }
      for (ComponentCensus.IndexComponents c : ComponentCensus.of(nc)) {
        Map<String, String> l = index(nc.getId(), c.path());
        e.add("strata_asterixdb_disk_components", "gauge",
            "Disk components of an open user index now", l, c.diskComponents());
        e.add("strata_asterixdb_disk_bytes", "gauge",
            "Bytes of those components", l,
            c.componentSizes().stream().mapToLong(Long::longValue).sum());
      }
      NodeSchedulers s = app.schedulers();
      s.flushSizes().forEach((index, sizes) -> IndexPath.of(index).ifPresent(p -> {
        Map<String, String> l = index(nc.getId(), p);
        e.add("strata_asterixdb_flushes_total", "counter",
            "Flushes Strata's scheduler ran for the index since the node started", l,
            sizes.size());
        e.add("strata_asterixdb_flush_bytes_total", "counter",
            "Bytes of the components those flushes wrote", l,
            sizes.stream().mapToLong(Long::longValue).sum());
      }));
      s.mergedBytes().forEach((index, bytes) -> IndexPath.of(index).ifPresent(p ->
          e.add("strata_asterixdb_merge_bytes_total", "counter",
              "Bytes of the components the index's merges wrote since the node started",
              index(nc.getId(), p), bytes)));
      s.schedulers().forEach((props, sch) -> {
        Map<String, String> l = PrometheusExposition.labels("node", nc.getId());
        l.put("scheduler", sch.scheduler().name());
        l.put("scope", sch.scope().name().toLowerCase(java.util.Locale.ROOT));
        e.add("strata_asterixdb_merges_scheduled_total", "counter",
            "Merges a Strata scheduler of the node was given", l, sch.mergesScheduled());
        e.add("strata_asterixdb_merges_completed_total", "counter",
            "Merges it completed", l, sch.mergesCompleted());
        e.add("strata_asterixdb_operations_failed_total", "counter",
            "Flushes and merges that failed under it", l, sch.operationsFailed());
      });
      StrataRateLimiterProvider budget = app.rateLimiters();
      if (budget != null) {
        e.ioBudget(PrometheusExposition.labels("node", nc.getId()), budget.counters());
      }
    }
    return e.text();
  }

  private static Map<String, String> index(String node, IndexPath p) {
    Map<String, String> l = PrometheusExposition.labels("node", node);
    l.put("partition", Integer.toString(p.partition()));
    l.put("dataverse", p.dataverse());
    l.put("dataset", p.dataset());
    l.put("index", p.index());
    return l;
  }
}
