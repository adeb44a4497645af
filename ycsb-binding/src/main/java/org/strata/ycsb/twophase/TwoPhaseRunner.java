package org.strata.ycsb.twophase;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.HdrHistogram.Recorder;
import org.strata.lsm.Durability;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.scheduler.des.ArrivalProcess;

/**
 * Runs a two-phase experiment (Luo & Carey section 2): loads the dataset once, runs the testing
 * phase (closed loop, the testing scheduler, warm-up excluded) on a copy of it to find the maximum
 * write throughput W, then each running phase (open loop: constant arrivals at a fraction of W, a
 * given rate or a burst pattern, every scheduler on the same arrivals) on a fresh copy. Each phase
 * starts from the same loaded state, as each of the paper's experiments starts from a freshly
 * loaded tree.
 */
public final class TwoPhaseRunner {
  private final TwoPhaseConfig config;
  private final Path out;
  private final Progress progress;
  private final boolean keepData;

  /**
   * @param out the output directory; data goes to {@code out/data} and is deleted at the end
   *     unless {@code keepData}
   * @param console where the progress line goes (null: nowhere)
   * @param terminal true if {@code console} is a terminal (the line is rewritten in place)
   */
  public TwoPhaseRunner(TwoPhaseConfig config, Path out, PrintStream console, boolean terminal,
      boolean keepData) {
    this.config = config;
    this.out = out;
    this.progress = new Progress(console, terminal);
    this.keepData = keepData;
  }

  /** Runs every phase and returns the measurements (reports are {@link ReportWriter}'s job). */
  public TwoPhaseResult run() throws Exception {
    Files.createDirectories(out);
    Path data = out.resolve("data");
    deleteTree(data);
    Path loaded = data.resolve("loaded");
    long keys = config.load().records();
    RecordShape shape = new RecordShape(config.records(), keys);
    KeyChooser chooser = new KeyChooser(config.records(), keys);

    long t0 = System.nanoTime();
    long loadedComponents = load(loaded, shape);
    double loadSeconds = (System.nanoTime() - t0) / 1e9;
    progress.message(String.format(Locale.ROOT, "loaded %,d records in %.1f s: %d disk"
        + " components", keys, loadSeconds, loadedComponents));

    PhaseResult testing = testing(copy(loaded, data.resolve("testing")), shape, chooser);
    progress.message(String.format(Locale.ROOT, "testing phase: maximum write throughput %,.0f"
        + " writes/s (%s scheduler, first %d s excluded)", testing.throughput(),
        testing.scheduler(), config.testing().warmupSeconds()));

    List<PhaseResult> runs = new ArrayList<>();
    TwoPhaseConfig.Running r = config.running();
    for (NamedPlugin scheduler : r.schedulers()) {
      if (r.bursts() != null) {
        runs.add(running(loaded, data, shape, chooser, scheduler, Double.NaN,
            ArrivalProcess.bursts(ArrivalProcess.Burst.parseAll(r.bursts())), "bursts"));
      } else if (r.rate() > 0) {
        runs.add(running(loaded, data, shape, chooser, scheduler, Double.NaN,
            ArrivalProcess.constant(r.rate()), String.format(Locale.ROOT, "%.0f", r.rate())));
      } else {
        for (double u : r.utilizations()) {
          double rate = u * testing.throughput();
          if (!(rate > 0)) {
            throw new IllegalStateException("the testing phase completed no write after its"
                + " warm-up, so there is no arrival rate to run at");
          }
          runs.add(running(loaded, data, shape, chooser, scheduler, u,
              ArrivalProcess.constant(rate), String.format(Locale.ROOT, "%.0f%%", u * 100)));
        }
      }
    }
    if (!keepData) {
      deleteTree(data);
    }
    return new TwoPhaseResult(config, loadSeconds, loadedComponents, testing, runs);
  }

  /** Writes every record once, in random order, then flushes and (optionally) compacts. */
  private long load(Path dir, RecordShape shape) throws Exception {
    StoreConfig s = config.dataset().store();
    StoreConfig loadStore = s.withMemoryComponent(config.load().memoryComponent(),
        s.memoryComponentCount()).withIo(0, s.forceBytes(), s.pageSize())
        .withDurability(Durability.NONE).withScheduler(new NamedPlugin("fair", Map.of()));
    long n = config.load().records();
    long[] order = RecordShape.permutation(n, config.seed());
    progress.message(String.format(Locale.ROOT, "loading %,d records of %,d bytes into %s", n,
        shape.recordBytes(), config.dataset().partitions() > 1 ? config.dataset().partitions()
            + " partitions" : "the dataset"));
    try (Dataset ds = Dataset.open(dir, config.dataset().withStore(loadStore))) {
      int threads = 2;
      AtomicLong next = new AtomicLong();
      List<Thread> ts = new ArrayList<>();
      List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
      for (int t = 0; t < threads; t++) {
        SplittableRandom random = new SplittableRandom(config.seed() + t);
        Thread th = new Thread(() -> {
          try {
            long i;
            while ((i = next.getAndIncrement()) < n) {
              ds.upsert(RecordShape.key(order[(int) i]), shape.fields(random));
            }
          } catch (Exception e) {
            failures.add(e);
          }
        }, "strata-load-" + t);
        th.start();
        ts.add(th);
      }
      for (Thread th : ts) {
        th.join();
      }
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
      ds.flush();
      if (config.load().compact()) {
        ds.compact();
      }
      ds.awaitMerges();
      return DatasetTotals.of(ds).diskComponents();
    }
  }

  private PhaseResult testing(Path dir, RecordShape shape, KeyChooser chooser) throws Exception {
    TwoPhaseConfig.Testing t = config.testing();
    StoreConfig s = config.dataset().store().withScheduler(t.scheduler());
    if (t.policy() != null) {
      s = s.withMergePolicy(t.policy());
    }
    try (Dataset ds = Dataset.open(dir, config.dataset().withStore(s))) {
      long phaseStart = System.currentTimeMillis();
      ClosedLoopDriver driver = new ClosedLoopDriver(t.writers(), target(ds, shape, chooser));
      DatasetTotals before = DatasetTotals.of(ds);
      PhaseSampler sampler = new PhaseSampler("testing", ds, driver::completed,
          driver::completed, () -> 0, null, null, out, progress, t.durationSeconds());
      try {
        driver.run(TimeUnit.SECONDS.toNanos(t.durationSeconds()));
      } finally {
        sampler.close();
      }
      List<PhaseSample> samples = sampler.samples();
      long afterWarmup = 0;
      int seconds = 0;
      for (PhaseSample p : samples) {
        if (p.second() > t.warmupSeconds() && p.second() <= t.durationSeconds()) {
          afterWarmup += p.completed();
          seconds++;
        }
      }
      double w = seconds == 0 ? 0 : (double) afterWarmup / seconds;
      DatasetTotals after = DatasetTotals.of(ds);
      return new PhaseResult("testing", t.scheduler().name(), Double.NaN, 0, w, samples,
          null, null, after.stallCount() - before.stallCount(),
          after.stallSeconds() - before.stallSeconds(), after.stallsSince(before),
          maxComponents(samples), after.writeAmplificationSince(before), driver.completed(),
          driver.completed(), 0, null, mergeWidths(ds, phaseStart));
    } finally {
      deleteTree(dir);
    }
  }

  private PhaseResult running(Path loaded, Path data, RecordShape shape, KeyChooser chooser,
      NamedPlugin scheduler, double utilization, ArrivalProcess arrivals, String label)
      throws Exception {
    String name = "running-" + scheduler.name() + "-" + label.replace("%", "pct");
    Path dir = copy(loaded, data.resolve(name));
    TwoPhaseConfig.Running r = config.running();
    progress.message(String.format(Locale.ROOT, "running phase %s: %,.0f writes/s (mean) for"
        + " %d s", name, arrivals.meanRate(), r.durationSeconds()));
    StoreConfig s = config.dataset().store().withScheduler(scheduler);
    try (Dataset ds = Dataset.open(dir, config.dataset().withStore(s))) {
      long phaseStart = System.currentTimeMillis();
      Recorder write = new Recorder(3);
      Recorder processing = new Recorder(3);
      double meanRate = arrivals.meanRate();
      OpenLoopDriver driver = new OpenLoopDriver(arrivals, r.writers(),
          target(ds, shape, chooser), write, processing);
      DatasetTotals before = DatasetTotals.of(ds);
      PhaseSampler sampler = new PhaseSampler(name, ds, driver::arrived, driver::completed,
          driver::queueLength, write, processing, out, progress, r.durationSeconds());
      QueryLoad queries = r.queries().threads() > 0
          ? new QueryLoad(ds, r.queries(), config.load().records(), config.seed()) : null;
      OpenLoopDriver.Result res;
      try {
        res = driver.run(TimeUnit.SECONDS.toNanos(r.durationSeconds()),
            TimeUnit.SECONDS.toNanos(r.drainSeconds()));
      } finally {
        if (queries != null) {
          queries.close();
        }
        sampler.close();
      }
      DatasetTotals after = DatasetTotals.of(ds);
      List<PhaseSample> samples = sampler.samples();
      return new PhaseResult(name, scheduler.name(), utilization, meanRate,
          (double) res.completed() / r.durationSeconds(), samples,
          Latency.of(sampler.writeLatency()), Latency.of(sampler.processingLatency()),
          after.stallCount() - before.stallCount(), after.stallSeconds() - before.stallSeconds(),
          after.stallsSince(before), maxComponents(samples), after.writeAmplificationSince(before), res.arrived(),
          res.completed(), res.unfinished(), queries == null ? null : queries.result(),
          mergeWidths(ds, phaseStart));
    } finally {
      deleteTree(dir);
    }
  }

  /** An update of a chosen record with fresh fields; one random source per writer thread. */
  private WriteTarget target(Dataset ds, RecordShape shape, KeyChooser chooser) {
    AtomicLong threadSeeds = new AtomicLong(config.seed() * 1_000_003L);
    ThreadLocal<SplittableRandom> random = ThreadLocal.withInitial(
        () -> new SplittableRandom(threadSeeds.incrementAndGet()));
    return () -> {
      SplittableRandom rnd = random.get();
      ds.upsert(RecordShape.key(chooser.next(rnd)), shape.fields(rnd));
    };
  }

  /** Merges that completed since {@code sinceMillis}, by input components, over all trees. */
  private static java.util.SortedMap<Integer, Long> mergeWidths(Dataset ds, long sinceMillis) {
    java.util.SortedMap<Integer, Long> m = new java.util.TreeMap<>();
    for (org.strata.lsm.StoreStats s : ds.treeStats().values()) {
      for (org.strata.lsm.MergeRecord r : s.mergeLog()) {
        if (r.startMillis() >= sinceMillis && "ok".equals(r.outcome())) {
          m.merge(r.inputComponents(), 1L, Long::sum);
        }
      }
    }
    return m;
  }

  private static long maxComponents(List<PhaseSample> samples) {
    long m = 0;
    for (PhaseSample s : samples) {
      m = Math.max(m, s.diskComponents());
    }
    return m;
  }

  private static Path copy(Path from, Path to) throws IOException {
    deleteTree(to);
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
