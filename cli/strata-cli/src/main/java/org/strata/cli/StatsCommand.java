package org.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.Quantities;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.engine.LsmTree;
import org.strata.lsm.metrics.CompactionStatsTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code strata stats}: component counts, write amplification, stalls and recent merges. */
@Command(name = "stats", mixinStandardHelpOptions = true,
    description = "Print the store's statistics: components, runs, entries, bytes flushed and "
        + "merged, write amplification (both definitions), stalls by cause, recent merges.")
final class StatsCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Option(names = "--json", description = "Print one JSON object (sizes in bytes; the text "
      + "output shows them as KiB, MiB, GiB).")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (Dataset.isDataset(store.dir)) {
      return datasetStats();
    }
    ObjectNode o;
    String table;
    try (LsmStore s = store.openExisting()) {
      StoreStats st = s.stats();
      o = StatsJson.of(st, s.runs(), s.deviceCounters());
      table = CompactionStatsTable.of(st, s.runs());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(StatsJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(o));
    } else {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        JsonNode v = e.getValue();
        if (e.getKey().equals("mergesByLevel") || e.getKey().endsWith("Durations")) {
          continue; // the compaction-stats table below, and --json, show them
        } else if (e.getKey().equals("mergeLog")) {
          out.printf("%-26s %d recent merges (see --json)%n", e.getKey(), v.size());
        } else if (e.getKey().equals("runList")) {
          out.printf("%-26s%n", "runList (newest first)");
          for (JsonNode r : v) {
            out.printf("  level %-3d %4d component(s) %10s %12d entries  ids %d-%d%n",
                r.get("level").asInt(), r.get("components").asInt(),
                Quantities.human(r.get("bytes").asLong()),
                r.get("entries").asLong(), r.get("minComponentId").asLong(),
                r.get("maxComponentId").asLong());
          }
        } else if (e.getKey().equals("bytes")) {
          for (Map.Entry<String, JsonNode> s : v.properties()) {
            String name = e.getKey() + "." + s.getKey();
            if (s.getValue().isObject()) {
              for (Map.Entry<String, JsonNode> l : s.getValue().properties()) {
                out.printf("%-26s %s%n", name + "." + l.getKey(),
                    Quantities.human(l.getValue().asLong()));
              }
            } else if (s.getKey().endsWith("Bytes")) {
              out.printf("%-26s %s%n", name, Quantities.human(s.getValue().asLong()));
            } else {
              out.printf("%-26s %d%n", name, s.getValue().asLong());
            }
          }
        } else if (e.getKey().equals("device")) {
          out.printf("%-26s %s%n", "device", v.get("name").asText());
          for (Map.Entry<String, JsonNode> c : v.properties()) {
            if (c.getValue().isObject()) {
              JsonNode n = c.getValue();
              out.printf("%-26s wrote %s, read %s, %d forces, %.3f device s, waited %.3f s%n",
                  "device." + c.getKey(), Quantities.human(n.get("bytesWritten").asLong()),
                  Quantities.human(n.get("bytesRead").asLong()), n.get("forces").asLong(),
                  n.get("deviceSeconds").asDouble(), n.get("waitSeconds").asDouble());
            }
          }
        } else if (v.isObject()) {
          for (Map.Entry<String, JsonNode> s : v.properties()) {
            out.printf("%-26s count %d, %.3f s%n", e.getKey() + "." + s.getKey(),
                s.getValue().get("count").asLong(), s.getValue().get("seconds").asDouble());
          }
        } else if (v.isIntegralNumber() && e.getKey().toLowerCase(Locale.ROOT).contains("bytes")) {
          out.printf("%-26s %s%n", e.getKey(), Quantities.human(v.asLong()));
        } else if (v.isDouble()) {
          out.printf("%-26s %.3f%n", e.getKey(), v.asDouble());
        } else {
          out.printf("%-26s %s%n", e.getKey(), v.asText());
        }
      }
      out.println("compaction stats (cumulative; MiB)");
      out.print(table);
    }
    out.flush();
    return 0;
  }

  /** Per tree of a dataset: one line each, or with --json every tree's full statistics. */
  private int datasetStats() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (Dataset ds = StoreLog.open(spec, store.dir, () -> Dataset.open(store.dir, null))) {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      o.put("partitions", ds.partitionCount());
      o.put("secondaryMaintenance", ds.config().maintenance().configName());
      ObjectNode mem = o.putObject("memoryFullStalls");
      ds.memoryStalls().forEach((cause, t) -> {
        if (cause == StallCause.MEMORY_FULL) {
          mem.put("count", t.count());
          mem.put("seconds", t.seconds());
        }
      });
      ObjectNode trees = o.putObject("trees");
      for (int p = 0; p < ds.partitionCount(); p++) {
        for (String index : ds.indexNames()) {
          LsmTree t = ds.tree(p, index);
          trees.set("p" + p + "/" + index, StatsJson.of(t.stats(), t.runs()));
        }
      }
      if (json) {
        out.println(StatsJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(o));
      } else {
        out.printf("dataset: %d partition(s), %s maintenance%n", ds.partitionCount(),
            ds.config().maintenance().configName());
        out.printf("%-24s %10s %8s %8s %8s %12s %8s%n", "tree", "components", "runs", "flushes",
            "merges", "entries", "WA");
        for (Map.Entry<String, JsonNode> e : trees.properties()) {
          JsonNode t = e.getValue();
          out.printf("%-24s %10d %8d %8d %8d %12d %8.2f%n", e.getKey(),
              t.get("diskComponents").asLong(), t.get("runs").asLong(),
              t.get("flushes").asLong(), t.get("merges").asLong(), t.get("entries").asLong(),
              t.get("writeAmplification").asDouble());
        }
      }
    }
    out.flush();
    return 0;
  }
}
