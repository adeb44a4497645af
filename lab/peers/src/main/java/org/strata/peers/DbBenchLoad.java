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
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.strata.twophase.GcPhase;
import org.strata.twophase.MachineInfo;
import org.strata.twophase.ProcessUse;
import org.strata.twophase.RecordShape;
import org.strata.twophase.TwoPhaseConfig;
import org.strata.twophase.TwoPhaseResult;
import org.strata.twophase.TwoPhaseRunner;

/**
 * One load by RocksDB's own {@code db_bench}, in a process of its own, with the comparison's
 * records (16-byte keys, values of the records' size, {@code load.records} of them, no
 * compression, no write-ahead log, as Strata's load runs with durability {@code unlogged}), timed
 * from the process's start to the end of its last flush or compaction by RocksDB's own LOG
 * ({@link RocksDbInfoLog}; the process's wall time, start to exit, where the LOG names none) and
 * accounted as a process: CPU in user and system mode from start to exit and the peak resident set
 * ({@link ProcessUse}, sampled every 20 ms).
 *
 * <p>One writer runs {@code filluniquerandom} (every key once, in random order, as the other
 * systems load); more writers run {@code fillrandom} with {@code --writes} of their share over a
 * key range of {@code load.records}, since {@code db_bench} refuses {@code filluniquerandom} with
 * more than one thread: random keys with repeats, so fewer distinct keys than the others load
 * (the report says how many writes it made). Both end with {@code waitforcompaction}.
 */
public final class DbBenchLoad {
  private static final Pattern READ = Pattern.compile(
      "^readrandom\\s*:\\s*([0-9.]+) micros/op (\\d+) ops/sec ([0-9.]+) seconds (\\d+) operations;"
          + ".*\\((\\d+) of (\\d+) found\\)");
  private static final Pattern PERCENTILES = Pattern.compile(
      "^Percentiles: P50: ([0-9.]+) P75: ([0-9.]+) P99: ([0-9.]+) P99.9: ([0-9.]+)");
  private static final Pattern COUNT = Pattern.compile(
      "^Count: (\\d+) Average: ([0-9.]+)");
  private static final Pattern MAX = Pattern.compile("^Min: \\S+\\s+Median: \\S+\\s+Max:"
      + " ([0-9.]+)");
  private static final Pattern CACHE = Pattern.compile(
      "^rocksdb\\.block\\.cache\\.(hit|miss) COUNT : (\\d+)");
  private static final Pattern FILL = Pattern.compile(
      "^(fill\\w+)\\s*:\\s*([0-9.]+) micros/op (\\d+) ops/sec ([0-9.]+) seconds (\\d+) operations");

  /** How long db_bench's waitforcompaction may wait before it is stopped. */
  static final long WAIT_LIMIT_NANOS = 120_000_000_000L;

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
    return command(executable, db, config.load().writers());
  }

  /** The command line for a load into {@code db} by {@code writers} threads. */
  private List<String> command(String executable, Path db, int writers) {
    long n = config.load().records();
    List<String> c = new ArrayList<>(List.of(executable,
        "--benchmarks=" + (writers == 1 ? "filluniquerandom" : "fillrandom")
            + ",flush,waitforcompaction",
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
    return run(dir, console, true, config.load().writers());
  }

  private TwoPhaseResult run(Path dir, PrintStream console, boolean dropData, int writers)
      throws Exception {
    String executable = resolve(spec.executable());
    Path data = dir.resolve("data");
    TwoPhaseRunner.deleteTree(data);
    Files.createDirectories(data);
    MachineInfo machine = MachineInfo.capture(data);
    Path db = data.resolve("db");
    List<String> command = command(executable, db, writers);
    Path log = dir.resolve("db_bench.log");
    Files.deleteIfExists(log);
    Execution run = execute(command, log, true);
    List<String> lines = run.lines();
    ProcessUse use = run.use();
    Fill fill = fill(lines);
    if (fill == null) {
      throw new IllegalStateException(spec.label() + ": db_bench printed no fill result; its"
          + " output is in " + log);
    }
    OptionalLong lastJob = run.stoppedWaiting() ? OptionalLong.empty()
        : RocksDbInfoLog.lastBackgroundJobEndMicros(db.resolve("LOG"));
    double loadSeconds = lastJob.isPresent()
        ? Math.max(fill.seconds, (lastJob.getAsLong() - run.startMicros()) / 1e6)
        : use.wallSeconds();
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
    if (dropData) {
      TwoPhaseRunner.deleteTree(data);
    }
    return new TwoPhaseResult(config, spec.system(), spec.label(),
        description(fill, writers, run.stoppedWaiting(), lastJob.isPresent()),
        machine.finish(space), loadSeconds, files, space, live, 0, null, List.of(),
        new GcPhase(List.of("none: a native process"), 0, 0, 0, 0, 0, 0, 0), null, use,
        fill.seconds);
  }

  private String description(Fill fill, int writers, boolean stoppedWaiting, boolean fromLog) {
    String time;
    if (stoppedWaiting) {
      time = "the load's time is the process's, from start to exit, stopped after its"
          + " waitforcompaction had waited " + WAIT_LIMIT_NANOS / 1_000_000_000L + " s with"
          + " compactions still pending (the memtables were flushed before)";
    } else if (fromLog) {
      time = "the load's time runs from the process's start to the end of its last flush or"
          + " compaction, by RocksDB's LOG";
    } else {
      time = "the load's time is the process's, from start to exit, waiting for every"
          + " compaction (RocksDB's LOG named no finished flush or compaction)";
    }
    return String.format(Locale.ROOT, "RocksDB's db_bench (%s compaction, %s), %s with %d"
        + " writer(s): %,d writes, %,d ops/s by db_bench's own count over its %.2f s of filling;"
        + " %s",
        spec.compaction(), spec.shape().equals("defaults") ? "db_bench's defaults"
            : "the comparison's memory components, Bloom bits and level sizes",
        fill.benchmark, writers, fill.operations, fill.opsPerSecond, fill.seconds, time);
  }

  /** The system clock in microseconds since the epoch, as RocksDB stamps its LOG's events. */
  private static long epochMicros() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  /**
   * Loads as {@link #run} does with one writer (every key once, whatever {@code load.writers}
   * says, so that every get finds its key), keeping the database, then reads random loaded keys
   * with db_bench's {@code readrandom}: one unmeasured run of {@code warmup-seconds} with the first
   * thread count, then one run of {@code duration-seconds} per thread count, each with a block
   * cache of the comparison's {@code page-cache.size} ({@code --cache_size}) and, at the
   * comparison's shape, its Bloom bits. Every get must find its key (db_bench counts them).
   */
  public TwoPhaseResult lookups(Path dir, org.strata.twophase.LookupConfig lookup,
      PrintStream console) throws Exception {
    // One writer: every key once, so that every get finds its key.
    TwoPhaseResult loaded = run(dir, console, false, 1);
    String executable = resolve(spec.executable());
    Path db = dir.resolve("data").resolve("db");
    long cache = config.dataset().store().pageCache().size().bytes();
    List<org.strata.twophase.LookupResult.Run> runs = new ArrayList<>();
    Path log = dir.resolve("db_bench.log");
    try {
      if (lookup.warmupSeconds() > 0) {
        read(executable, db, cache, lookup.threads().get(0), lookup.warmupSeconds(), log);
      }
      for (int threads : lookup.threads()) {
        runs.add(read(executable, db, cache, threads, lookup.durationSeconds(), log));
        if (console != null) {
          org.strata.twophase.LookupResult.Run r = runs.get(runs.size() - 1);
          console.printf(Locale.ROOT, "%s: %d thread(s): %,.0f gets/s, p99 %.3f ms%n",
              spec.label(), threads, r.getsPerSecond(), r.latency().p99());
        }
      }
    } finally {
      TwoPhaseRunner.deleteTree(dir.resolve("data"));
    }
    return new TwoPhaseResult(config, loaded.system(), loaded.label(), loaded.description(),
        loaded.machine(), loaded.loadSeconds(), loaded.loadedDiskComponents(),
        loaded.loadedSpaceBytes(), loaded.liveDataBytes(), 0, null, List.of(), loaded.loadGc(),
        new org.strata.twophase.LookupResult(cache, loaded.loadedSpaceBytes(),
            config.load().records(), lookup.warmupSeconds(), runs), loaded.loadProcess(),
        loaded.fillSeconds());
  }

  /**
   * {@code command} with its output line-buffered ({@code stdbuf -oL}, where coreutils' stdbuf is
   * on the PATH), so that db_bench's lines arrive as it prints them into a pipe.
   */
  private static List<String> lineBuffered(List<String> command) {
    try {
      String stdbuf = resolve("stdbuf");
      List<String> c = new ArrayList<>(List.of(stdbuf, "-oL"));
      c.addAll(command);
      return c;
    } catch (IllegalArgumentException e) {
      return command;
    }
  }

  /** The command line of one {@code readrandom} run. */
  List<String> readCommand(String executable, Path db, long cacheBytes, int threads,
      int seconds) {
    List<String> c = new ArrayList<>(List.of(executable, "--benchmarks=readrandom",
        "--use_existing_db=1", "--db=" + db, "--num=" + config.load().records(),
        "--threads=" + threads, "--duration=" + seconds, "--key_size=" + RecordShape.KEY_BYTES,
        "--value_size=" + RecordShape.valueBytes(config.records()), "--cache_size=" + cacheBytes,
        "--compression_type=none", "--histogram=1", "--statistics=1",
        "--seed=" + (config.seed() + 2)));
    if (spec.shape().equals("comparison")) {
      RocksDbMapping m = new RocksDbMapping(config.dataset().store(), spec.compaction());
      c.add("--bloom_bits=" + Math.round(m.bloomBitsPerKey()));
      c.add("--block_size=" + config.dataset().store().io().pageSize().bytes());
    }
    return c;
  }

  private org.strata.twophase.LookupResult.Run read(String executable, Path db,
      long cacheBytes, int threads, int seconds, Path log) throws Exception {
    List<String> lines = execute(readCommand(executable, db, cacheBytes, threads, seconds), log,
        false).lines();
    org.strata.twophase.LookupResult.Run r = reads(threads, lines);
    if (r == null) {
      throw new IllegalStateException(spec.label() + ": db_bench printed no readrandom result;"
          + " its output is in " + log);
    }
    return r;
  }

  /**
   * One db_bench process to its end.
   *
   * @param lines what it printed
   * @param use what it spent, by the operating system's accounting (null when not asked)
   * @param stoppedWaiting whether its waitforcompaction was stopped at {@link #WAIT_LIMIT_NANOS}
   * @param startMicros the system clock as the process had started and its accounting began, in
   *     microseconds since the epoch (so a time measured from it ends within the process's life)
   */
  private record Execution(List<String> lines, ProcessUse use, boolean stoppedWaiting,
      long startMicros) {}

  /**
   * Runs {@code command} (line-buffered) to its end, sampling its process every 20 ms if {@code
   * account} (a measured read leaves it alone), and appends the command and its output to {@code
   * log}. A {@code waitforcompaction} that waits
   * longer than {@link #WAIT_LIMIT_NANOS} is stopped (the memtables were flushed before it);
   * any other unsuccessful exit fails, naming the log.
   */
  private Execution execute(List<String> command, Path log, boolean account) throws Exception {
    Files.writeString(log, String.join(" ", command) + "\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    Process p = new ProcessBuilder(lineBuffered(command)).redirectErrorStream(true).start();
    ProcessUse.Meter meter = account ? ProcessUse.Meter.of(p.pid()) : null;
    long startMicros = epochMicros();
    List<String> lines = new ArrayList<>();
    long[] waitStarted = {0};
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          synchronized (lines) {
            lines.add(line);
            if (line.contains("waitforcompaction(") && line.endsWith("started")
                && waitStarted[0] == 0) {
              waitStarted[0] = System.nanoTime();
            }
          }
        }
      } catch (IOException e) {
        // the process ended; what it printed so far is kept
      }
    }, "db-bench-output");
    reader.start();
    boolean stopped = false;
    while (p.isAlive()) {
      if (meter != null) {
        meter.sample();
      }
      p.waitFor(20, java.util.concurrent.TimeUnit.MILLISECONDS);
      long since;
      synchronized (lines) {
        since = waitStarted[0];
      }
      if (since != 0 && System.nanoTime() - since > WAIT_LIMIT_NANOS && p.isAlive()) {
        // The memtables are flushed (the flush step ran before the wait): stop waiting.
        p.destroy();
        p.waitFor();
        stopped = true;
      }
    }
    ProcessUse use = meter == null ? null : meter.stop(true);
    reader.join();
    Files.write(log, lines, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    if (p.exitValue() != 0 && !stopped) {
      throw new IllegalStateException(spec.label() + ": db_bench exited with " + p.exitValue()
          + "; its output is in " + log);
    }
    return new Execution(lines, use, stopped, startMicros);
  }

  /**
   * One {@code readrandom} run from db_bench's output: gets, seconds, the latency histogram
   * (db_bench's microseconds, in ms) and the block cache's hits over hits and misses; null
   * without a result line. Fails if any get did not find its key.
   */
  static org.strata.twophase.LookupResult.Run reads(int threads, List<String> lines) {
    Matcher read = null;
    double[] pct = null;
    double mean = Double.NaN;
    long count = 0;
    double max = Double.NaN;
    long hits = -1;
    long misses = -1;
    for (String raw : lines) {
      String line = raw.trim();
      Matcher m;
      if ((m = READ.matcher(line)).find()) {
        read = m;
      } else if ((m = PERCENTILES.matcher(line)).find()) {
        pct = new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
            Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4))};
      } else if ((m = COUNT.matcher(line)).find()) {
        count = Long.parseLong(m.group(1));
        mean = Double.parseDouble(m.group(2));
      } else if ((m = MAX.matcher(line)).find()) {
        max = Double.parseDouble(m.group(1));
      } else if ((m = CACHE.matcher(line)).find()) {
        if (m.group(1).equals("hit")) {
          hits = Long.parseLong(m.group(2));
        } else {
          misses = Long.parseLong(m.group(2));
        }
      }
    }
    if (read == null) {
      return null;
    }
    long found = Long.parseLong(read.group(5));
    long asked = Long.parseLong(read.group(6));
    if (found != asked) {
      throw new IllegalStateException("db_bench readrandom found " + found + " of " + asked
          + " loaded keys");
    }
    long gets = Long.parseLong(read.group(4));
    double seconds = Double.parseDouble(read.group(3));
    org.strata.twophase.Latency latency = pct == null ? null
        : new org.strata.twophase.Latency(count, mean / 1000, pct[0] / 1000,
            Double.NaN, pct[2] / 1000, pct[3] / 1000, max / 1000);
    double hitRatio = hits >= 0 && misses >= 0 && hits + misses > 0
        ? (double) hits / (hits + misses) : Double.NaN;
    return new org.strata.twophase.LookupResult.Run(threads, seconds, gets, latency,
        hitRatio);
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
}
