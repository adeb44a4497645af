package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata readbench}: point lookups of random existing keys (ids below {@code --records}, as
 * {@code load} wrote them), then a full scan; prints lookups/s and scan MB/s.
 */
@Command(name = "readbench", mixinStandardHelpOptions = true,
    description = "Measure point lookups of random existing keys user<id> (0 <= id < N, as load "
        + "wrote them) and a full scan of a store.")
final class ReadBenchCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Option(names = "--records", required = true, paramLabel = "N",
      description = "Ids 0..N-1 exist in the store.",
      converter = QuantityConverters.Count.class)
  long records;

  @Option(names = "--lookups", paramLabel = "L", defaultValue = "200000",
      description = "Point lookups to time after a warm-up of L/10.",
      converter = QuantityConverters.Count.class)
  long lookups;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Key choice seed.")
  long seed;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (records < 1 || lookups < 1) {
      throw new ParameterException(spec.commandLine(),
          "--records and --lookups must be 1 or more");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    ObjectNode o = StatsJson.MAPPER.createObjectNode();
    try (LsmStore s = store.openExisting()) {
      long missing = 0;
      for (long i = 0; i < lookups / 10; i++) {
        s.get(RecordGenerator.key(rnd.nextLong(records)).getBytes(StandardCharsets.UTF_8));
      }
      StoreStats before = s.stats();
      long t0 = System.nanoTime();
      for (long i = 0; i < lookups; i++) {
        if (s.get(RecordGenerator.key(rnd.nextLong(records)).getBytes(StandardCharsets.UTF_8))
            .isEmpty()) {
          missing++;
        }
      }
      double lookupSeconds = (System.nanoTime() - t0) / 1e9;
      StoreStats after = s.stats();
      long t1 = System.nanoTime();
      long entries = 0;
      long bytes = 0;
      try (ScanCursor c = s.scan(null, null)) {
        while (c.hasNext()) {
          KeyValue kv = c.next();
          entries++;
          bytes += kv.key().length + kv.value().length;
        }
      }
      double scanSeconds = (System.nanoTime() - t1) / 1e9;
      long hits = after.pageCacheHits() - before.pageCacheHits();
      long misses = after.pageCacheMisses() - before.pageCacheMisses();
      o.put("lookups", lookups);
      o.put("lookupsPerSecond", lookups / lookupSeconds);
      o.put("missingKeys", missing);
      o.put("pageCacheHitRatio", hits + misses == 0 ? 0 : (double) hits / (hits + misses));
      o.put("diskComponents", after.diskComponents());
      o.put("scanEntries", entries);
      o.put("scanSeconds", scanSeconds);
      o.put("scanMegabytesPerSecond", bytes / 1e6 / scanSeconds);
      o.put("peakHeapBytes", LoadCommand.peakHeapBytes());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(StatsJson.MAPPER.writeValueAsString(o));
    } else {
      out.printf("%,d lookups: %,.0f lookups/s (page cache hit ratio %.2f, %d missing); full"
              + " scan of %,d entries: %.1f MiB/s; peak heap %.1f MiB%n", lookups,
          o.get("lookupsPerSecond").asDouble(), o.get("pageCacheHitRatio").asDouble(),
          o.get("missingKeys").asLong(), o.get("scanEntries").asLong(),
          o.get("scanMegabytesPerSecond").asDouble() * 1e6 / (1 << 20),
          Quantities.mebibytes(o.get("peakHeapBytes").asLong()));
    }
    out.flush();
    return o.get("missingKeys").asLong() == 0 ? 0 : 1;
  }
}
