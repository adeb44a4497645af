package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.strata.lsm.Durability;
import org.strata.lsm.Limits;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StoreStats;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.Quantities;
import org.strata.lsm.config.StoreConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata load}: writes records {@code user<id>} for ids 0..N-1 in batches, each batch made
 * durable before the next; with {@code --acks} and sequential keys, prints {@code acked N} after
 * each batch.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Write N records with keys user<id, 12 digits> and values derived from "
        + "(id, seed). With --acks and --key-order sequential, prints 'acked N' after each durable"
        + " batch: ids 0..N-1 are then durable.")
final class LoadCommand implements Callable<Integer> {
  /** Key order of a load. */
  enum KeyOrder { sequential, random }

  @Mixin StoreOptions store;

  @Option(names = "--records", required = true, paramLabel = "N", description = "Records to write"
      + " (e.g. 1000000, 1_000_000 or 1e6).",
      converter = QuantityConverters.Count.class)
  long records;

  @Option(names = "--record-size", paramLabel = "BYTES", defaultValue = "1000",
      description = "Value size in bytes, or with a unit such as 1KB.",
      converter = QuantityConverters.IntSize.class)
  int recordSize;

  @Option(names = "--key-order", paramLabel = "ORDER", defaultValue = "sequential",
      description = "sequential or random (a seeded permutation); default ${DEFAULT-VALUE}.")
  KeyOrder keyOrder;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
      description = "Seed of values and of the random order.")
  long seed;

  @Option(names = "--durability", paramLabel = "MODE",
      description = "sync, group, none or unlogged (no log: a crash loses what is not"
          + " flushed); overrides the configuration's log.durability.")
  String durability;

  @Option(names = "--batch-size", paramLabel = "B", defaultValue = "1000",
      description = "Records per durable batch.",
      converter = QuantityConverters.IntCount.class)
  int batchSize;

  @Option(names = "--acks", description = "With --key-order sequential, print 'acked N' after"
      + " each durable batch (ids 0..N-1 are then durable), for scripts that kill the load and"
      + " check what survived.")
  boolean acks;

  @Option(names = "--json", description = "Print only the summary, as one JSON object (no "
      + "'acked N' lines), so that stdout is valid JSON.")
  boolean json;

  @Option(names = {"-q", "--quiet"}, description = "Print only the summary line (no 'acked N'"
      + " lines, no progress).")
  boolean quiet;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (records < 0) {
      throw new ParameterException(spec.commandLine(), "--records must be 0 or more, got "
          + records);
    }
    if (recordSize < 0 || recordSize > Limits.MAX_VALUE_BYTES) {
      throw new ParameterException(spec.commandLine(), "--record-size must be from 0 to "
          + Limits.MAX_VALUE_BYTES + ", got " + recordSize);
    }
    if (batchSize < 1) {
      throw new ParameterException(spec.commandLine(), "--batch-size must be 1 or more, got "
          + batchSize);
    }
    Durability mode = null;
    if (durability != null) {
      try {
        mode = Durability.parse("--durability", durability);
      } catch (IllegalArgumentException | org.strata.lsm.InvalidConfigurationException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    StoreConfig cfg = store.configOrNull();
    if (mode != null) {
      cfg = (cfg == null ? existingOrDefault() : cfg).withDurability(mode);
    }
    long[] order = keyOrder == KeyOrder.random ? RecordGenerator.permutation(records, seed) : null;
    PrintWriter out = spec.commandLine().getOut();
    Progress progress = new Progress(System.console() != null && !quiet ? System.err : null,
        records);
    long start = System.nanoTime();
    StoreStats stats;
    long userBytes = 0;
    try (LsmStore s = store.open(cfg)) {
      long done = 0;
      while (done < records) {
        int n = (int) Math.min(batchSize, records - done);
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < n; i++) {
          long id = order == null ? done + i : order[(int) (done + i)];
          byte[] key = RecordGenerator.key(id).getBytes(StandardCharsets.UTF_8);
          batch.put(key, RecordGenerator.value(id, seed, recordSize));
          userBytes += key.length + recordSize;
        }
        s.write(batch);
        s.sync();
        done += n;
        if (acks && order == null && !json && !quiet) {
          out.println("acked " + done);
          out.flush();
        }
        progress.update(done);
      }
      progress.finish();
      s.flush();
      stats = s.stats();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    ObjectNode o = StatsJson.MAPPER.createObjectNode();
    o.put("records", records);
    o.put("seconds", seconds);
    o.put("recordsPerSecond", records / seconds);
    o.put("megabytesPerSecond", userBytes / 1e6 / seconds);
    o.put("peakHeapBytes", peakHeapBytes());
    o.put("writeAmplification", stats.writeAmplification());
    o.put("diskComponents", stats.diskComponents());
    if (json) {
      out.println(StatsJson.MAPPER.writeValueAsString(o));
    } else {
      out.printf("loaded %,d records in %.2f s: %,.0f records/s, %.1f MiB/s; peak heap %.1f"
              + " MiB; write amplification %.2f; %d disk components%n", records, seconds,
          records / seconds, Quantities.mebibytes(userBytes / seconds),
          Quantities.mebibytes(peakHeapBytes()), stats.writeAmplification(),
          stats.diskComponents());
    }
    out.flush();
    return 0;
  }

  private StoreConfig existingOrDefault() {
    java.nio.file.Path saved = store.dir.resolve("config.json");
    return java.nio.file.Files.exists(saved)
        ? org.strata.lsm.config.StoreConfigJson.read(saved) : StoreConfig.defaults();
  }

  /** Sum over heap pools of their peak usage. */
  static long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** A progress bar on a terminal's standard error, at most five updates a second. */
  static final class Progress {
    private final PrintStream err;
    private final long total;
    private long lastNanos;

    Progress(PrintStream err, long total) {
      this.err = err;
      this.total = total;
    }

    void update(long done) {
      if (err == null || total == 0) {
        return;
      }
      long now = System.nanoTime();
      if (now - lastNanos < 200_000_000L && done < total) {
        return;
      }
      lastNanos = now;
      int width = 40;
      int filled = (int) (width * done / total);
      err.print("\r[" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/"
          + total);
      err.flush();
    }

    void finish() {
      if (err != null && total > 0) {
        err.print("\r" + " ".repeat(70) + "\r");
        err.flush();
      }
    }
  }
}
