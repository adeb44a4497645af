package org.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata query}: a secondary-index query, equality or range, printing the matching records
 * sorted by primary key.
 */
@Command(name = "query", mixinStandardHelpOptions = true,
    description = "Query a secondary index of a dataset: --eq VALUE, or --from A and/or --to B "
        + "(inclusive). Prints the matching records sorted by primary key, one JSON object a "
        + "line; with --json, one object holding them all.")
final class QueryCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Dataset directory.")
  Path dir;

  @Option(names = "--index", required = true, paramLabel = "NAME",
      description = "Secondary index name.")
  String index;

  @Option(names = "--eq", paramLabel = "VALUE", description = "Records whose field equals VALUE.")
  String eq;

  @Option(names = "--from", paramLabel = "A", description = "Lower bound, inclusive.")
  String from;

  @Option(names = "--to", paramLabel = "B", description = "Upper bound, inclusive.")
  String to;

  @Option(names = "--json", description = "Print one JSON object: index, count and records.")
  boolean json;

  @Option(names = "--hex", description = "--eq, --from and --to are hex digits of the value's"
      + " UTF-8, two per byte (e.g. 6b31 for k1).")
  boolean hex;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (eq != null && (from != null || to != null)) {
      throw new ParameterException(spec.commandLine(), "give either --eq or --from/--to, not"
          + " both");
    }
    if (eq == null && from == null && to == null) {
      throw new ParameterException(spec.commandLine(), "give --eq VALUE or --from A and/or --to"
          + " B");
    }
    ArgText argv = Main.argv(spec);
    String eq = argv.text(spec, "--eq", this.eq, hex);
    String from = argv.text(spec, "--from", this.from, hex);
    String to = argv.text(spec, "--to", this.to, hex);
    if (from != null && to != null && Arrays.compareUnsigned(Utf8.encode(from,
        "--from"), Utf8.encode(to, "--to")) > 0) {
      throw new ParameterException(spec.commandLine(), "--from '" + from + "' is above --to '"
          + to + "'");
    }
    ExistingStore.requireDataset(dir);
    List<DatasetRecord> records;
    try (Dataset ds = StoreLog.open(spec, dir, () -> Dataset.open(dir, null))) {
      records = eq != null ? ds.queryEq(index, eq) : ds.queryRange(index, from, to);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      o.put("index", index);
      o.put("count", records.size());
      ArrayNode list = o.putArray("records");
      records.forEach(r -> list.add(recordJson(r)));
      out.println(StatsJson.MAPPER.writeValueAsString(o));
    } else {
      for (DatasetRecord r : records) {
        out.println(StatsJson.MAPPER.writeValueAsString(recordJson(r)));
      }
    }
    out.flush();
    return 0;
  }

  /** A record as {@code {"key": ..., "fields": {...}}}. */
  static ObjectNode recordJson(DatasetRecord r) {
    ObjectNode o = StatsJson.MAPPER.createObjectNode();
    o.put("key", r.key());
    // A plain record (feed-server --format asterixdb) shows its values as they were sent.
    o.set("fields", org.strata.lsm.dataset.PlainRecords.fieldsJson(r));
    return o;
  }
}
