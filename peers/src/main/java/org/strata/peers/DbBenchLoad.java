package org.strata.peers;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.strata.ycsb.twophase.GcPhase;
import org.strata.ycsb.twophase.MachineInfo;
import org.strata.ycsb.twophase.ProcessUse;
import org.strata.ycsb.twophase.RecordShape;
import org.strata.ycsb.twophase.TwoPhaseConfig;
import org.strata.ycsb.twophase.TwoPhaseResult;

/**
 * One load by RocksDB's own {@code db_bench}, in a process of its own, with the comparison's
 * records (16-byte keys, values of the records' size, {@code load.records} of them, no
 * compression, no write-ahead log, as Strata's load runs with durability {@code none}), timed and
 * accounted as a process: wall time from start to exit (opening, the fill, waiting for every
 * compaction, closing), CPU in user and system mode and the peak resident set ({@link
 * ProcessUse}, sampled every 20 ms).
 *
 * <p>One writer runs {@code filluniquerandom} (every key once, in random order, as the other
 * systems load); more writers run {@code fillrandom} with {@code --writes} of their share over a
 * key range of {@code load.records}, since {@code db_bench} refuses {@code filluniquerandom} with
 * more than one thread: random keys with repeats, so fewer distinct keys than the others load
 * (the report says how many writes it made). Both end with {@code waitforcompaction}.
 */
public final class DbBenchLoad {
  private static final Pattern FILL = Pattern.compile(
      "^(fill\\w+)\\s*:\\s*([0-9.]+) micros/op (\\d+) ops/sec ([0-9.]+) seconds (\\d+) operations");

  private final RocksDbNativeSystem spec;
  private final TwoPhaseConfig config;

  DbBenchLoad(RocksDbNativeSystem spec, TwoPhaseConfig config) {
    this.spec = spec;
    this.config = config;
  }

  /**
   * The executable to run, resolved on the PATH; throws naming it and how to install it if it
   * is not there.
   */
  public static String resolve(String executable) {
    if (executable.contains(File.separator)) {
      if (Files.isExecutable(Path.of(executable))) {
        return executable;
      }
    } else {
      String path = System.getenv("PATH");
      for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, executable))) {
          return Path.of(dir, executable).toString();
        }
      }
    }
    throw new IllegalArgumentException("rocksdb-native: '" + executable + "' is not an"
        + " executable on the PATH; install RocksDB's db_bench (Debian: apt-get install"
        + " rocksdb-tools) or give its path as \"executable\"");
  }

  /** The command line for a load into {@code db}. */
  List<String> command(String executable, Path db) {
    long n = config.load().records();
    int writers = config.load().writers();
    List<String> c = new ArrayList<>(List.of(executable,
        "--benchmarks=" + (writers == 1 ? "filluniquerandom" : "fillrandom") + ",waitforcompaction",
        "--db=" + db, "--num=" + n, "--threads=" + writers,
        "--key_size=" + RecordShape.KEY_BYTES,
        "--value_size=" + RecordShape.valueBytes(config.records()),
        "--compression_type=none", "--disable_wal=1", "--seed=" + (config.seed() + 1),
        "--compaction_style=" + (spec.compaction().equals("universal") ? 1 : 0)));
    if (writers > 1) {
      c.add("--writes=" + (n + writers - 1) / writers);
    }
    if (spec.shape().equals("comparison")) {
      RocksDbMapping m = new RocksDbMapping(config.dataset().store(), spec.compaction());
      c.add("--write_buffer_size=" + config.load().memoryComponent().bytes());
      c.add("--max_write_buffer_number=" + config.dataset().store().memoryComponent().count());
      c.add("--bloom_bits=" + Math.round(m.bloomBitsPerKey()));
      c.add("--block_size=" + config.dataset().store().io().pageSize().bytes());
      if (spec.compaction().equals("leveled")) {
        c.add("--target_file_size_base=" + m.targetFileSizeBase());
        c.add("--max_bytes_for_level_base=" + m.maxBytesForLevelBase());
      }
    }
    return c;
  }

  /**
   * Runs the load in {@code out/<label>/data}, keeping {@code db_bench}'s output in {@code
   * out/<label>/db_bench.log}, and returns it as a load-only result.
   */
  public TwoPhaseResult run(Path dir, PrintStream console) throws Exception {
    String executable = resolve(spec.executable());
    Path data = dir.resolve("data");
    deleteTree(data);
    Files.createDirectories(data);
    MachineInfo machine = MachineInfo.capture(data);
    Path db = data.resolve("db");
    List<String> command = command(executable, db);
    Path log = dir.resolve("db_bench.log");
    Files.writeString(log, String.join(" ", command) + "\n");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    ProcessUse.Meter meter = ProcessUse.Meter.of(p.pid());
    List<String> lines = new ArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          synchronized (lines) {
            lines.add(line);
          }
        }
      } catch (IOException e) {
        // the process ended; what it printed so far is kept
      }
    }, "db-bench-output");
    reader.start();
    while (p.isAlive()) {
      meter.sample();
      p.waitFor(20, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
    ProcessUse use = meter.stop(true);
    reader.join();
    Files.write(log, lines, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(spec.label() + ": db_bench exited with " + p.exitValue()
          + "; its output is in " + log);
    }
    Fill fill = fill(lines);
    if (fill == null) {
      throw new IllegalStateException(spec.label() + ": db_bench printed no fill result; its"
          + " output is in " + log);
    }
    long space = 0;
    long files = 0;
    try (Stream<Path> s = Files.list(db)) {
      for (Path f : (Iterable<Path>) s::iterator) {
        if (f.getFileName().toString().endsWith(".sst")) {
          space += Files.size(f);
          files++;
        }
      }
    }
    if (console != null) {
      console.printf(Locale.ROOT, "%s: %s wrote %,d records in %.1f s (%,d ops/s by its own"
          + " count); the process: %.1f s wall, %.1f s user, %.1f s system, peak RSS %.0f MiB%n",
          spec.label(), fill.benchmark, fill.operations, fill.seconds, fill.opsPerSecond,
          use.wallSeconds(), use.userSeconds(), use.systemSeconds(),
          use.peakRssBytes() / 1048576.0);
    }
    long records = config.load().records();
    long live = records * (RecordShape.KEY_BYTES + RecordShape.valueBytes(config.records()));
    deleteTree(data);
    return new TwoPhaseResult(config, spec.system(), spec.label(), description(fill),
        machine.finish(space), use.wallSeconds(), files, space, live, 0, null, List.of(),
        new GcPhase(List.of("none: a native process"), 0, 0, 0, 0, 0, 0, 0), null, use,
        fill.seconds);
  }

  private String description(Fill fill) {
    return String.format(Locale.ROOT, "RocksDB's db_bench (%s compaction, %s), %s with %d"
        + " writer(s): %,d writes, %,d ops/s by db_bench's own count over its %.2f s of filling;"
        + " the load's time is the process's, from start to exit, waiting for every compaction",
        spec.compaction(), spec.shape().equals("defaults") ? "db_bench's defaults"
            : "the comparison's memory components, Bloom bits and level sizes",
        fill.benchmark, config.load().writers(), fill.operations, fill.opsPerSecond,
        fill.seconds);
  }

  /** db_bench's result line of a fill. */
  record Fill(String benchmark, double microsPerOp, long opsPerSecond, double seconds,
      long operations) {}

  /** The fill's result line among {@code db_bench}'s output, or null. */
  static Fill fill(List<String> lines) {
    for (String line : lines) {
      Matcher m = FILL.matcher(line.trim());
      if (m.find()) {
        return new Fill(m.group(1), Double.parseDouble(m.group(2)), Long.parseLong(m.group(3)),
            Double.parseDouble(m.group(4)), Long.parseLong(m.group(5)));
      }
    }
    return null;
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
