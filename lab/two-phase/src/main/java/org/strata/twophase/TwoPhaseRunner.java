package org.strata.twophase;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.HdrHistogram.Recorder;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.metrics.HistoryFile;
import org.strata.sim.des.ArrivalProcess;

/**
 * Runs a two-phase experiment (Luo & Carey section 2) on one system under test: loads it once,
 * runs the testing phase (closed loop, the testing scheduler, warm-up excluded) on a copy of it to
 * find the maximum write throughput W, then each running phase (open loop: constant arrivals at a
 * fraction of W, a given rate or a burst pattern, every scheduler on the same arrivals) on a fresh
 * copy. Each phase starts from the same loaded state, as each of the paper's experiments starts
 * from a freshly loaded tree. Every system gets the same driver, keys, value bytes, arrival
 * process and sampler; each running phase gets a {@link Sustainability} verdict.
 */
public final class TwoPhaseRunner {
  private final TwoPhaseConfig config;
  private final TwoPhaseTarget target;
  private final Path out;
  private final Progress progress;
  private final boolean keepData;
  private final boolean verifyLoad;
  /** The records' shape (its letter pool is drawn once, here). */
  private final RecordShape shape;
  private GcPauseRecorder gc;

  /**
   * Runs Strata's dataset as configured.
   *
   * @param out the output directory; data goes to {@code out/data} and is deleted at the end
   *     unless {@code keepData}
   * @param console where the progress line goes (null: nowhere)
   * @param terminal true if {@code console} is a terminal (the line is rewritten in place)
   */
  public TwoPhaseRunner(TwoPhaseConfig config, Path out, PrintStream console, boolean terminal,
      boolean keepData) {
    this(config, StrataDatasetTarget.of(config), out, console, terminal, keepData, false);
  }

  /**
   * Runs {@code target}.
   *
   * @param verifyLoad true to read back every loaded key after loading and check its value
   */
  public TwoPhaseRunner(TwoPhaseConfig config, TwoPhaseTarget target, Path out,
      PrintStream console, boolean terminal, boolean keepData, boolean verifyLoad) {
    this.config = config;
    this.target = target;
    this.out = out;
    this.progress = new Progress(console, terminal);
    this.keepData = keepData;
    this.verifyLoad = verifyLoad;
    this.shape = new RecordShape(config.records(), config.load().records());
  }

  /** Runs every phase and returns the measurements (reports are {@link ReportWriter}'s job). */
  public TwoPhaseResult run() throws Exception {
    return run(true);
  }

  /** Loads only (the load comparison of {@code strata compare --phases load}). */
  public TwoPhaseResult runLoadOnly() throws Exception {
    return run(false);
  }

  private TwoPhaseResult run(boolean phases) throws Exception {
    try (GcPauseRecorder r = GcPauseRecorder.platform()) {
      gc = r;
      return runPhases(phases);
    } finally {
      gc = null;
    }
  }

  private TwoPhaseResult runPhases(boolean phases) throws Exception {
    if (phases) {
      checkQueries();
    }
    Files.createDirectories(out);
    Path data = out.resolve("data");
    deleteTree(data);
    MachineInfo machine = MachineInfo.capture(data);
    Path loaded = data.resolve("loaded");
    Loaded l = load(loaded);
    PhaseResult testing = null;
    List<PhaseResult> runs = new ArrayList<>();
    if (phases) {
      testing = testing(copy(loaded, data.resolve("testing")));
      TwoPhaseConfig.Running r = config.running();
      for (NamedPlugin scheduler : target.runningSchedulers(r.schedulers())) {
        if (r.bursts() != null) {
          runs.add(running(loaded, data, scheduler, Double.NaN,
              ArrivalProcess.bursts(ArrivalProcess.Burst.parseAll(r.bursts())), "bursts",
              r.durationSeconds()));
        } else if (r.rate() > 0) {
          runs.add(running(loaded, data, scheduler, Double.NaN, ArrivalProcess.constant(r.rate()),
              String.format(Locale.ROOT, "%.0f", r.rate()), r.durationSeconds()));
        } else {
          for (double u : r.utilizations()) {
            double rate = u * requireRate(testing);
            runs.add(running(loaded, data, scheduler, u, ArrivalProcess.constant(rate),
                String.format(Locale.ROOT, "%.0f%%", u * 100), r.durationSeconds()));
          }
        }
      }
    }
    if (!keepData) {
      deleteTree(data);
    }
    return new TwoPhaseResult(config, target.system(), target.label(), target.description(),
        machine.finish(l.spaceBytes), l.seconds, l.components, l.spaceBytes, liveDataBytes(),
        l.verified, testing, runs, l.gc, null, l.process, l.fillSeconds);
  }

  /**
   * Refuses, before anything runs, secondary queries on a system without that secondary index
   * (Strata through {@code LsmStore.put}, a peer).
   */
  private void checkQueries() {
    TwoPhaseConfig.Queries q = config.running().queries();
    if (q.threads() > 0 && q.kind().equals("secondary")
        && !target.secondaryIndexes().contains(q.index())) {
      List<String> has = target.secondaryIndexes();
      throw new IllegalArgumentException("running.queries.kind secondary: " + target.label()
          + " (" + target.system() + ") has no secondary index '" + q.index() + "' to query ("
          + (has.isEmpty() ? "it has no secondary indexes" : "it has " + String.join(", ", has))
          + "); use point, short-scan or long-scan, or set running.queries.threads to 0");
    }
  }

  /**
   * Loads, runs the testing phase, then bisects the arrival rate between 0 and the testing
   * maximum with running phases of {@code phaseSeconds} on fresh copies of the loaded data until
   * the bracket is within {@code tolerance} (0.05: 5%) of its top (or no rate down to 1% of the
   * maximum was sustainable), and finally runs a phase at 95% of the highest sustainable rate for
   * its latency.
   */
  public SustainableRate findSustainable(int phaseSeconds, double tolerance) throws Exception {
    try (GcPauseRecorder r = GcPauseRecorder.platform()) {
      gc = r;
      return search(phaseSeconds, tolerance);
    } finally {
      gc = null;
    }
  }

  private SustainableRate search(int phaseSeconds, double tolerance) throws Exception {
    checkQueries();
    Files.createDirectories(out);
    Path data = out.resolve("data");
    deleteTree(data);
    MachineInfo machine = MachineInfo.capture(data);
    Path loaded = data.resolve("loaded");
    Loaded l = load(loaded);
    PhaseResult testing = testing(copy(loaded, data.resolve("testing")));
    double w = requireRate(testing);
    NamedPlugin scheduler = target.runningSchedulers(config.running().schedulers()).get(0);
    List<PhaseResult> tried = new ArrayList<>();
    double lo = 0;
    double hi = w;
    double rate = w;
    for (int i = 0; i < 30; i++) {
      PhaseResult p = running(loaded, data, scheduler, rate / w, ArrivalProcess.constant(rate),
          String.format(Locale.ROOT, "%.0f", rate), phaseSeconds);
      tried.add(p);
      if (p.verdict().sustainable()) {
        lo = rate;
      } else {
        hi = rate;
      }
      if (lo >= hi || hi - lo <= tolerance * hi) {
        break;
      }
      if (lo == 0 && hi < 0.01 * w) {
        break; // nothing above 1% of the testing maximum was sustainable
      }
      rate = (lo + hi) / 2;
    }
    PhaseResult at95 = null;
    if (lo > 0) {
      at95 = running(loaded, data, scheduler, 0.95 * lo / w, ArrivalProcess.constant(0.95 * lo),
          String.format(Locale.ROOT, "%.0f-at95", 0.95 * lo), phaseSeconds);
    }
    if (!keepData) {
      deleteTree(data);
    }
    TwoPhaseResult base = new TwoPhaseResult(config, target.system(), target.label(),
        target.description(), machine.finish(l.spaceBytes), l.seconds, l.components,
        l.spaceBytes, liveDataBytes(), l.verified, testing, tried, l.gc, null, l.process,
            l.fillSeconds);
    return new SustainableRate(base, phaseSeconds, tolerance, lo, hi, at95);
  }

  /**
   * Loads, then runs random gets of loaded keys (the point-lookup comparison of {@code strata
   * compare --phases lookup}): the loaded data is opened as for a running phase (Strata with its
   * page cache, a peer with its block cache), warmed up with the first thread count, then each
   * thread count runs for the configured seconds. Every get must return its loaded value.
   */
  @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
  public TwoPhaseResult runLookups(LookupConfig lookup) throws Exception {
    try (GcPauseRecorder r = GcPauseRecorder.platform()) {
      gc = r;
      Files.createDirectories(out);
      Path data = out.resolve("data");
      deleteTree(data);
      MachineInfo machine = MachineInfo.capture(data);
      Path loaded = data.resolve("loaded");
      Loaded l = load(loaded);
        int n = Math.toIntExact(config.load().records());
      long[] expected = new long[n];
      for (int id = 0; id < n; id++) {
        expected[id] = LookupPhase.fingerprint(loadRecord(shape, id).valueBytes());
      }
      NamedPlugin scheduler = target.runningSchedulers(config.running().schedulers()).get(0);
      List<LookupResult.Run> runs = new ArrayList<>();
      try (SystemUnderTest sut = target.open(loaded, new PhaseSetup(PhaseSetup.Kind.RUNNING,
          scheduler, null))) {
        LookupPhase phase = new LookupPhase(sut, expected, config.seed());
        progress.message(String.format(Locale.ROOT, "%s: lookups: warming up %d s",
            target.label(), lookup.warmupSeconds()));
        phase.warmUp(lookup.threads().get(0), lookup.warmupSeconds());
        for (int threads : lookup.threads()) {
          LookupResult.Run run = phase.run(threads, lookup.durationSeconds());
          progress.message(String.format(Locale.ROOT, "%s: lookups with %d thread(s): %,.0f"
                  + " gets/s, p99 %.3f ms, cache hit ratio %.3f", target.label(), threads,
              run.getsPerSecond(), run.latency().p99(), run.cacheHitRatio()));
          runs.add(run);
        }
      }
      if (!keepData) {
        deleteTree(data);
      }
      LookupResult lookups = new LookupResult(config.dataset().store().pageCache().size().bytes(),
          l.spaceBytes, n, lookup.warmupSeconds(), runs);
      return new TwoPhaseResult(config, target.system(), target.label(), target.description(),
          machine.finish(l.spaceBytes), l.seconds, l.components, l.spaceBytes, liveDataBytes(),
          l.verified, null, List.of(), l.gc, lookups, l.process, l.fillSeconds);
    } finally {
      gc = null;
    }
  }

  private static double requireRate(PhaseResult testing) {
    if (!(testing.throughput() > 0)) {
      throw new IllegalStateException("the testing phase completed no write after its warm-up,"
          + " so there is no arrival rate to run at");
    }
    return testing.throughput();
  }

  /** The configured write-rate limit in bytes per second (0: none). */
  private long writeRateLimit() {
    return config.dataset().store().io().writeRateLimit().bytes();
  }

  private long liveDataBytes() {
    return config.load().records() * shape.recordBytes();
  }

  private record Loaded(double seconds, long components, long spaceBytes, long verified,
      GcPhase gc, ProcessUse process, double fillSeconds) {}

  /**
   * Writes every record once, in random key order, with two threads; then flushes, waits for
   * merges, and (if asked) reads every key back. Record {@code id}'s fields come from a random
   * source seeded by the seed and the id, so every system loads the same bytes.
   */
  @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
  private Loaded load(Path dir) throws Exception {
    long n = config.load().records();
    long[] order = RecordShape.permutation(n, config.seed());
    progress.message(String.format(Locale.ROOT, "%s: loading %,d records of %,d bytes",
        target.label(), n, shape.recordBytes()));
    Files.createDirectories(dir);
    try (SystemUnderTest sut = target.open(dir, new PhaseSetup(PhaseSetup.Kind.LOAD, null,
        null))) {
      gc.startPhase();
      ProcessUse.Meter meter = ProcessUse.Meter.self();
      long t0 = System.nanoTime();
      AtomicLong next = new AtomicLong();
      List<Thread> ts = new ArrayList<>();
      List<Exception> failures = new CopyOnWriteArrayList<>();
      for (int t = 0; t < config.load().writers(); t++) {
        Thread th = new Thread(() -> {
          try {
            long i;
            while ((i = next.getAndIncrement()) < n && failures.isEmpty()) {
              sut.write(loadRecord(shape, order[(int) i]));
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
      double fillSeconds = (System.nanoTime() - t0) / 1e9;
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
      sut.flush();
      sut.awaitMerges();
      double seconds = (System.nanoTime() - t0) / 1e9;
      ProcessUse process = meter == null ? null : meter.stop(false);
      GcPhase loadGc = gc.endPhase();
      TargetStats s = sut.stats();
      progress.message(String.format(Locale.ROOT, "%s: loaded %,d records in %.1f s"
          + " (%,.0f records/s): %d disk components, %s", target.label(), n, seconds,
          n / seconds, s.diskComponents(), s.shape()));
      long verified = verifyLoad ? verify(sut, shape, n) : 0;
      return new Loaded(seconds, s.diskComponents(), s.spaceBytes(), verified, loadGc, process,
          fillSeconds);
    }
  }

  private GeneratedRecord loadRecord(RecordShape shape, long id) {
    return new GeneratedRecord(RecordShape.key(id),
        shape.fields(new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + id)));
  }

  /** Reads every loaded key back; fails naming the first key that is missing or different. */
  private long verify(SystemUnderTest sut, RecordShape shape, long n) throws Exception {
    for (long id = 0; id < n; id++) {
      GeneratedRecord expected = loadRecord(shape, id);
      byte[] got = sut.read(expected.key());
      if (got == null) {
        throw new IllegalStateException(target.label() + " lost key " + expected.key()
            + " after loading " + n + " records");
      }
      if (!Arrays.equals(got, expected.valueBytes())) {
        throw new IllegalStateException(target.label() + " returned a different value for "
            + expected.key() + " after loading (" + got.length + " bytes, expected "
            + expected.valueBytes().length + ")");
      }
    }
    progress.message(String.format(Locale.ROOT, "%s: read back all %,d loaded keys",
        target.label(), n));
    return n;
  }

  @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
  private PhaseResult testing(Path dir) throws Exception {
    TwoPhaseConfig.Testing t = config.testing();
    NamedPlugin scheduler = target.testingScheduler(t.scheduler());
    try (SystemUnderTest sut = target.open(dir, new PhaseSetup(PhaseSetup.Kind.TESTING,
        t.scheduler(), t.policy()))) {
      long phaseStart = System.currentTimeMillis();
      ClosedLoopDriver driver = new ClosedLoopDriver(t.writers(), writes(sut));
      TargetStats before = sut.stats();
      PhaseSampler sampler = new PhaseSampler("testing", sut::stats,
          driver::completed, driver::completed, () -> 0, null, null, null, out, progress,
          t.durationSeconds());
      gc.startPhase();
      try {
        driver.run(TimeUnit.SECONDS.toNanos(t.durationSeconds()));
      } finally {
        sampler.close();
      }
      GcPhase testingGc = gc.endPhase();
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
      TargetStats after = sut.stats();
      progress.message(String.format(Locale.ROOT, "%s: testing phase: maximum write throughput"
          + " %,.0f writes/s (%s scheduler, first %d s excluded)", target.label(), w,
          scheduler.name(), t.warmupSeconds()));
      return new PhaseResult("testing", scheduler.name(), Double.NaN, 0, w, samples,
          null, null, after.stallCount() - before.stallCount(),
          after.stallSeconds() - before.stallSeconds(), after.stallsSince(before),
          maxComponents(samples), after.writeAmplificationSince(before), driver.completed(),
          driver.completed(), 0, null, sut.mergeWidths(phaseStart), 0,
          after.pendingMergeBytes(), after.spaceBytes(), null, testingGc,
          IoBudgetUse.of(samples, t.warmupSeconds(), t.durationSeconds(), writeRateLimit())
              .withBudgetCounters(sampler.ioCountersBetween(t.warmupSeconds(),
                  t.durationSeconds())));
    } finally {
      keepHistory(dir, "testing");
      deleteTree(dir);
    }
  }

  @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
  private PhaseResult running(Path loaded, Path data, NamedPlugin scheduler, double utilization,
      ArrivalProcess arrivals, String label, int durationSeconds) throws Exception {
    String name = "running-" + scheduler.name() + "-" + label.replace("%", "pct");
    Path dir = copy(loaded, data.resolve(name));
    TwoPhaseConfig.Running r = config.running();
    progress.message(String.format(Locale.ROOT, "%s: running phase %s: %,.0f writes/s (mean)"
        + " for %d s", target.label(), name, arrivals.meanRate(), durationSeconds));
    try (SystemUnderTest sut = target.open(dir, new PhaseSetup(PhaseSetup.Kind.RUNNING,
        scheduler, null))) {
      long phaseStart = System.currentTimeMillis();
      Recorder write = new Recorder(3);
      Recorder processing = new Recorder(3);
      Recorder arrivalLag = new Recorder(3);
      double meanRate = arrivals.meanRate();
      OpenLoopDriver driver = new OpenLoopDriver(arrivals, r.writers(), writes(sut), write,
          processing, arrivalLag);
      TargetStats before = sut.stats();
      PhaseSampler sampler = new PhaseSampler(name, sut::stats, driver::arrived,
          driver::completed, driver::queueLength, write, processing, arrivalLag, out, progress,
          durationSeconds);
      QueryLoad queries = null;
      if (r.queries().threads() > 0) {
        QueryTarget q = sut.queries();
        if (q == null) {
          sampler.close();
          throw new IllegalArgumentException(target.label() + " does not run queries alongside"
              + " writes; set running.queries.threads to 0 for it");
        }
        queries = new QueryLoad(q, r.queries(), config.load().records(), config.seed());
        sampler.countQueries(queries::completed);
      }
      OpenLoopDriver.Result res;
      gc.startPhase();
      try {
        res = driver.run(TimeUnit.SECONDS.toNanos(durationSeconds),
            TimeUnit.SECONDS.toNanos(r.drainSeconds()));
      } finally {
        if (queries != null) {
          queries.close();
        }
        sampler.close();
      }
      GcPhase runningGc = gc.endPhase();
      TargetStats after = sut.stats();
      List<PhaseSample> samples = sampler.samples();
      Sustainability.Verdict verdict = Sustainability.judge(samples, durationSeconds,
          res.unfinished(), 2, config.dataset().store().memoryComponent().size().bytes());
      progress.message(String.format(Locale.ROOT, "%s: %s: %s", target.label(), name,
          verdict.word() + (verdict.sustainable() ? "" : ": " + String.join("; ",
              verdict.reasons()))));
      return new PhaseResult(name, scheduler.name(), utilization, meanRate,
          (double) res.completed() / durationSeconds, samples,
          Latency.of(sampler.writeLatency()), Latency.of(sampler.processingLatency()),
          after.stallCount() - before.stallCount(), after.stallSeconds() - before.stallSeconds(),
          after.stallsSince(before), maxComponents(samples), after.writeAmplificationSince(before),
          res.arrived(), res.completed(), res.unfinished(),
          queries == null ? null : queries.result(), sut.mergeWidths(phaseStart),
          res.queueAtEnd(), after.pendingMergeBytes(), after.spaceBytes(), verdict, runningGc,
          IoBudgetUse.of(samples, 0, durationSeconds, writeRateLimit())
              .withBudgetCounters(sampler.ioCountersBetween(0, durationSeconds)));
    } finally {
      keepHistory(dir, name);
      deleteTree(dir);
    }
  }

  /** An update of a chosen record with fresh fields; one random source per writer thread. */
  private WriteTarget writes(SystemUnderTest sut) {
    KeyChooser chooser = new KeyChooser(config.records(), config.load().records());
    AtomicLong threadSeeds = new AtomicLong(config.seed() * 1_000_003L);
    ThreadLocal<SplittableRandom> random = ThreadLocal.withInitial(
        () -> new SplittableRandom(threadSeeds.incrementAndGet()));
    return () -> {
      SplittableRandom rnd = random.get();
      sut.write(new GeneratedRecord(RecordShape.key(chooser.next(rnd)), shape.fields(rnd)));
    };
  }

  private static long maxComponents(List<PhaseSample> samples) {
    long m = 0;
    for (PhaseSample s : samples) {
      m = Math.max(m, s.diskComponents());
    }
    return m;
  }

  /**
   * Keeps the index histories of a phase's closed directory (the load's events, then the
   * phase's) under {@code out/history/<phase>/}, for {@code strata lsm --dir out}.
   */
  private void keepHistory(Path dir, String phase) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    Path to = out.resolve("history").resolve(phase);
    deleteTree(to);
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String name = p.getFileName().toString();
        if (name.equals(HistoryFile.NAME) || name.equals(HistoryFile.PREVIOUS)) {
          Path target = to.resolve(dir.relativize(p).toString());
          Files.createDirectories(target.getParent());
          Files.copy(p, target);
        }
      }
    }
  }

  /** Copies a closed system's directory, leaving out lock files. */
  static Path copy(Path from, Path to) throws IOException {
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

  /** Deletes {@code dir} and everything under it; nothing if it does not exist. */
  public static void deleteTree(Path dir) throws IOException {
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
