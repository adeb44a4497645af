package org.strata.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.strata.lsm.Durability;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.DatasetVerifier;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.dataset.SecondaryMaintenance;
import org.strata.lsm.spi.RunInfo;
import org.strata.twophase.CacheCounters;
import org.strata.twophase.GeneratedRecord;
import org.strata.twophase.PhaseResult;
import org.strata.twophase.PhaseSample;
import org.strata.twophase.PhaseSetup;
import org.strata.twophase.QueryTarget;
import org.strata.twophase.RecordShape;
import org.strata.twophase.SecondaryQuery;
import org.strata.twophase.StrataDatasetTarget;
import org.strata.twophase.SystemUnderTest;
import org.strata.twophase.TargetStats;
import org.strata.twophase.TwoPhaseConfig;
import org.strata.twophase.TwoPhaseResult;
import org.strata.twophase.TwoPhaseRunner;
import org.strata.twophase.TwoPhaseTarget;

/**
 * Luo & Carey's claims that only the engine can check (the simulator has no queries, partitioned
 * runs or secondary indexes): {@code strata two-phase} runs of partitioned leveling (AC-P1 to
 * AC-P4), of tiering and leveling with queries alongside the writes (AC-F9, AC-F10), of datasets
 * with secondary indexes (AC-X1 to AC-X3), and a correctness run of eager maintenance (AC-X5).
 * Each two-phase run goes through {@link Observed}, which watches every phase through the
 * system's reporting accessors (each tree's merge log and runs) and runs the queries.
 */
final class LuoCareyEngine {
  /**
   * "Much" larger or smaller, as AC-F7 reads the paper's "much larger write latencies": at least
   * twice (distinct from {@link LuoCareyConfig#muchLarger()}, the reading of "≫").
   */
  static final double MUCH = 2;

  static final List<String> KINDS = List.of("point", "short-scan", "long-scan");
  private static final List<String> QUERY_SCHEDULERS = List.of("fair", "greedy");

  private LuoCareyEngine() {}

  // ---- watching a two-phase run ---------------------------------------------------------------

  /**
   * Queries of one kind during one running phase.
   *
   * @param kind the turn's name: point, short-scan or long-scan (AC-F9), a selectivity (AC-X4)
   * @param threads threads that ran it
   * @param count queries completed
   * @param seconds seconds the kind had (its turns)
   * @param p99Millis 99th percentile latency
   */
  record QueryStat(String kind, int threads, long count, double seconds, double p99Millis) {
    double throughput() {
      return seconds <= 0 ? 0 : count / seconds;
    }
  }

  /**
   * What {@link Observed} saw of one phase.
   *
   * @param kind load, testing or running
   * @param scheduler the phase's scheduler (null while loading)
   * @param merges the merges of every tree that started in the phase and completed, from the
   *     trees' merge logs
   * @param mergesCompleted merges the trees counted as completed in the phase (more than {@code
   *     merges} holds when the logs, which keep each tree's last 1,000, dropped some)
   * @param levelSamples bytes per level (all trees) once a second, for the testing phase
   * @param levelsAtClose bytes per level when the phase ended
   * @param queries the queries run alongside a running phase, by kind (empty otherwise)
   */
  record Observation(PhaseSetup.Kind kind, String scheduler, List<MergeRecord> merges,
      long mergesCompleted, List<SortedMap<Integer, Long>> levelSamples,
      SortedMap<Integer, Long> levelsAtClose, Map<String, QueryStat> queries) {

    /** Whether {@link #merges()} holds every merge of the phase. */
    boolean logComplete() {
      return merges.size() >= mergesCompleted;
    }
  }

  /** A two-phase run's result with what was observed of each phase, in phase order. */
  record Run(String name, TwoPhaseConfig config, TwoPhaseResult result,
      List<Observation> observations) {
    Observation phase(PhaseSetup.Kind kind, int index) {
      int i = 0;
      for (Observation o : observations) {
        if (o.kind() == kind && i++ == index) {
          return o;
        }
      }
      throw new IllegalStateException("luo-carey: run " + name + " has no " + kind + " phase "
          + index);
    }

    /** The running phase of {@code scheduler} at {@code utilization} and what was observed. */
    PhaseResult running(String scheduler, double utilization) {
      for (PhaseResult p : result.runs()) {
        if (p.scheduler().equals(scheduler) && (Double.isNaN(utilization)
            || Math.abs(p.utilization() - utilization) < 1e-9)) {
          return p;
        }
      }
      throw new IllegalStateException("luo-carey: run " + name + " has no running phase of "
          + scheduler + " at " + utilization);
    }

    Observation runningObservation(PhaseResult phase) {
      return phase(PhaseSetup.Kind.RUNNING, result.runs().indexOf(phase));
    }
  }

  /**
   * Strata's dataset target, watched: each phase's merge log and level sizes, and the queries of
   * {@link QuerySlices} alongside every running phase when {@code turns} is set.
   */
  static final class Observed implements TwoPhaseTarget {
    private final TwoPhaseTarget inner;
    private final TwoPhaseConfig config;
    private final Turns turns;
    final List<Observation> observations = new CopyOnWriteArrayList<>();

    Observed(TwoPhaseConfig config, Turns turns) {
      this.inner = StrataDatasetTarget.of(config);
      this.config = config;
      this.turns = turns;
    }

    @Override
    public String system() {
      return inner.system();
    }

    @Override
    public String label() {
      return inner.label();
    }

    @Override
    public String description() {
      return inner.description();
    }

    @Override
    public List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured) {
      return inner.runningSchedulers(configured);
    }

    @Override
    public List<String> secondaryIndexes() {
      return inner.secondaryIndexes();
    }

    @Override
    public NamedPlugin testingScheduler(NamedPlugin configured) {
      return inner.testingScheduler(configured);
    }

    @Override
    public SystemUnderTest open(Path dir, PhaseSetup setup) throws Exception {
      return new Watched(inner.open(dir, setup), setup);
    }

    @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
    private final class Watched implements SystemUnderTest {
      private final SystemUnderTest s;
      private final PhaseSetup setup;
      private final long openMillis = System.currentTimeMillis();
      private final long mergesBefore;
      private final List<SortedMap<Integer, Long>> samples = new CopyOnWriteArrayList<>();
      private final Thread sampler;
      private volatile boolean stop;
      private final QuerySlices slices;

      Watched(SystemUnderTest s, PhaseSetup setup) {
        this.s = s;
        this.setup = setup;
        this.mergesBefore = merges(s.treeStats());
        if (setup.kind() == PhaseSetup.Kind.TESTING) {
          sampler = new Thread(() -> {
            while (!stop) {
              try {
                Thread.sleep(1000);
              } catch (InterruptedException e) {
                return;
              }
              if (!stop) {
                samples.add(levelBytes(s.treeRuns()));
              }
            }
          }, "luo-carey-levels");
          sampler.setDaemon(true);
          sampler.start();
        } else {
          sampler = null;
        }
        slices = setup.kind() == PhaseSetup.Kind.RUNNING && turns != null
            ? new QuerySlices(s.queries(), config.load().records(), config.seed(), turns)
            : null;
      }

      @Override
      public void write(GeneratedRecord record) throws Exception {
        s.write(record);
      }

      @Override
      public byte[] read(String key) throws Exception {
        return s.read(key);
      }

      @Override
      public void flush() throws Exception {
        s.flush();
      }

      @Override
      public void awaitMerges() throws Exception {
        s.awaitMerges();
      }

      @Override
      public TargetStats stats() {
        return s.stats();
      }

      @Override
      public SortedMap<Integer, Long> mergeWidths(long sinceMillis) {
        return s.mergeWidths(sinceMillis);
      }

      @Override
      public CacheCounters cacheCounters() {
        return s.cacheCounters();
      }

      @Override
      public QueryTarget queries() {
        return s.queries();
      }

      @Override
      public Map<String, StoreStats> treeStats() {
        return s.treeStats();
      }

      @Override
      public Map<String, List<RunInfo>> treeRuns() {
        return s.treeRuns();
      }

      @Override
      public void close() throws Exception {
        stop = true;
        Exception failure = null;
        Map<String, QueryStat> q = Map.of();
        if (slices != null) {
          try {
            slices.close();
            q = slices.result();
          } catch (Exception e) {
            failure = e;
          }
        }
        if (sampler != null) {
          sampler.interrupt();
          sampler.join();
        }
        try {
          Map<String, StoreStats> trees = s.treeStats();
          List<MergeRecord> merges = new ArrayList<>();
          for (StoreStats t : trees.values()) {
            for (MergeRecord r : t.mergeLog()) {
              if (r.startMillis() >= openMillis && "ok".equals(r.outcome())) {
                merges.add(r);
              }
            }
          }
          observations.add(new Observation(setup.kind(), setup.scheduler() == null ? null
              : setup.scheduler().name(), List.copyOf(merges), merges(trees) - mergesBefore,
              List.copyOf(samples), levelBytes(s.treeRuns()), q));
        } finally {
          s.close();
        }
        if (failure != null) {
          throw failure;
        }
      }
    }
  }

  private static long merges(Map<String, StoreStats> trees) {
    long n = 0;
    for (StoreStats t : trees.values()) {
      n += t.merges();
    }
    return n;
  }

  /** Bytes per level, summed over the trees. */
  static SortedMap<Integer, Long> levelBytes(Map<String, List<RunInfo>> trees) {
    SortedMap<Integer, Long> m = new TreeMap<>();
    for (List<RunInfo> runs : trees.values()) {
      for (RunInfo r : runs) {
        m.merge(r.level(), r.sizeBytes(), Long::sum);
      }
    }
    return m;
  }

  /** One query against {@code target}, with the thread's random numbers and the keys loaded. */
  interface Query {
    void run(QueryTarget target, SplittableRandom random, long keys) throws Exception;
  }

  /**
   * A kind of query that takes turns with others.
   *
   * @param name its name in the results
   * @param threads threads that run it in its turns
   * @param query what one query does
   */
  record Turn(String name, int threads, Query query) {}

  /** Kinds of query taking turns of {@code sliceSeconds}, in this order, round after round. */
  record Turns(double sliceSeconds, List<Turn> turns) {
    Turns {
      turns = List.copyOf(turns);
    }

    List<String> names() {
      return turns.stream().map(Turn::name).toList();
    }
  }

  /**
   * AC-F9's turns: point lookups of random loaded keys, short scans and long scans from random
   * loaded keys ({@link #KINDS}).
   */
  static Turns f9Turns(LuoCareyConfig.Queries q) {
    return new Turns(q.sliceSeconds(), List.of(
        new Turn(KINDS.get(0), q.pointThreads(),
            (t, r, keys) -> t.get(RecordShape.key(r.nextLong(keys)))),
        new Turn(KINDS.get(1), q.shortScanThreads(),
            (t, r, keys) -> t.scan(RecordShape.key(r.nextLong(keys)), q.shortScanLength())),
        new Turn(KINDS.get(2), q.longScanThreads(),
            (t, r, keys) -> t.scan(RecordShape.key(r.nextLong(keys)), q.longScanLength()))));
  }

  /**
   * AC-X4's turns: secondary-index queries ({@link SecondaryQuery}: a random range of S
   * consecutive values of the index's field, about S records, the index scanned, the primary keys
   * sorted, each record fetched from the primary index), one turn per selectivity S, named S.
   */
  static Turns x4Turns(LuoCareyConfig.SecondaryQueries q) {
    List<Turn> turns = new ArrayList<>();
    for (int selectivity : q.selectivities()) {
      turns.add(new Turn(Integer.toString(selectivity), q.threads(),
          (t, r, keys) -> SecondaryQuery.run(t, q.index(), keys, selectivity, r)));
    }
    return new Turns(q.sliceSeconds(), turns);
  }

  /**
   * Query threads alongside a running phase: the kinds of {@code turns} take turns of {@code
   * sliceSeconds} (the first, the second, ..., the first again), each with its own number of
   * threads, every query's latency recorded under the kind of the turn it started in.
   */
  @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
  static final class QuerySlices implements AutoCloseable {
    private final Turns turns;
    private final int n;
    private final long sliceNanos;
    private final long startNanos = System.nanoTime();
    private long endNanos;
    private volatile boolean stop;
    private final Recorder[] latency;
    private final AtomicLong[] counts;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    QuerySlices(QueryTarget target, long keys, long seed, Turns turns) {
      if (target == null) {
        throw new IllegalStateException("luo-carey: the system runs no queries");
      }
      this.turns = turns;
      this.n = turns.turns().size();
      this.sliceNanos = (long) (turns.sliceSeconds() * 1e9);
      latency = new Recorder[n];
      counts = new AtomicLong[n];
      int most = 0;
      for (int k = 0; k < n; k++) {
        latency[k] = new Recorder(3);
        counts[k] = new AtomicLong();
        most = Math.max(most, turns.turns().get(k).threads());
      }
      for (int i = 0; i < most; i++) {
        int id = i;
        SplittableRandom random = new SplittableRandom(seed * 31 + i);
        Thread t = new Thread(() -> {
          try {
            while (!stop) {
              long now = System.nanoTime() - startNanos;
              int k = kindAt(now, sliceNanos, n);
              Turn turn = turns.turns().get(k);
              if (id >= turn.threads()) {
                long wait = sliceNanos - now % sliceNanos;
                Thread.sleep(Math.max(1, wait / 1_000_000));
                continue;
              }
              long t0 = System.nanoTime();
              turn.query().run(target, random, keys);
              latency[k].recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
              counts[k].incrementAndGet();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            failure.compareAndSet(null, e);
          }
        }, "luo-carey-query-" + i);
        t.setDaemon(true);
        t.start();
        threads.add(t);
      }
    }

    /** The kind (of {@code kinds}) whose turn it is {@code nanos} after the start. */
    static int kindAt(long nanos, long sliceNanos, int kinds) {
      return (int) ((nanos / sliceNanos) % kinds);
    }

    /** Seconds kind {@code kind} (of {@code kinds}) had in the first {@code nanos}. */
    static double secondsOf(int kind, long nanos, long sliceNanos, int kinds) {
      long cycle = sliceNanos * kinds;
      long full = nanos / cycle;
      long rest = nanos - full * cycle - kind * sliceNanos;
      return (full * sliceNanos + Math.max(0, Math.min(sliceNanos, rest))) / 1e9;
    }

    @Override
    public void close() throws Exception {
      stop = true;
      for (Thread t : threads) {
        t.join();
      }
      endNanos = System.nanoTime();
      if (failure.get() != null) {
        throw failure.get();
      }
    }

    Map<String, QueryStat> result() {
      Map<String, QueryStat> out = new LinkedHashMap<>();
      for (int k = 0; k < n; k++) {
        Turn turn = turns.turns().get(k);
        Histogram h = latency[k].getIntervalHistogram();
        out.put(turn.name(), new QueryStat(turn.name(), turn.threads(), counts[k].get(),
            secondsOf(k, endNanos - startNanos, sliceNanos, n),
            h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0));
      }
      return out;
    }
  }

  /** Runs one two-phase experiment of the engine section, watched. */
  static Run twoPhase(ReproductionContext ctx, JsonNode json, String field, String name,
      Turns turns) throws Exception {
    TwoPhaseConfig c = LuoCareyConfig.bind(json, field, name);
    Path dir = ctx.scratch("two-phase-" + name);
    ctx.log("luo-carey: engine two-phase run " + name);
    Observed target = new Observed(c, turns);
    TwoPhaseResult r = new TwoPhaseRunner(c, target, dir, ctx.progress(), false, false, false)
        .run();
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "luo-carey: %s: testing"
        + " maximum %.0f writes/s", name, r.testing().throughput()));
    for (PhaseResult p : r.runs()) {
      line.append(String.format(Locale.ROOT, "; %s %d stalls (%.1f s), p99 %.1f ms", p.name(),
          p.stallCount(), p.stallSeconds(), p.writeLatency().p99()));
    }
    ctx.log(line.toString());
    return new Run(name, c, r, List.copyOf(target.observations));
  }

  /**
   * AC-F10's run: {@code leveling} with a force only at the end of each flush and merge ({@code
   * io.force-bytes} 0), its running phases at the arrival rate of {@code measured}'s (95% of the
   * leveling's testing maximum, as AC-F9's), after a two-second testing phase that is not read
   * (the runner always runs one).
   */
  static JsonNode forceAtEnd(JsonNode leveling, Run measured) {
    ObjectNode c = leveling.deepCopy();
    c.put("name", "queries-leveling-force-at-end");
    c.put("description", "AC-F10: " + measured.config().name() + " with a force only at the end"
        + " of each flush and merge (io.force-bytes 0), at its running rate; the testing phase is"
        + " not read");
    c.withObjectProperty("dataset").withObjectProperty("io").put("force-bytes", "0");
    ObjectNode testing = c.withObjectProperty("testing");
    testing.put("duration-seconds", 2);
    testing.put("warmup-seconds", 1);
    ObjectNode running = c.withObjectProperty("running");
    running.remove("utilizations");
    running.put("rate", measured.result().runs().get(0).arrivalRate());
    return c;
  }

  // ---- AC-P1, AC-P3: partitioned leveling ----------------------------------------------------

  /** Writes completed in each second of the testing phase after its warm-up. */
  static double[] testingSeries(TwoPhaseResult r) {
    TwoPhaseConfig.Testing t = r.config().testing();
    List<Double> v = new ArrayList<>();
    for (PhaseSample s : r.testing().samples()) {
      if (s.second() > t.warmupSeconds() && s.second() <= t.durationSeconds()) {
        v.add((double) s.completed());
      }
    }
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** {first half's mean, second half's mean} of {@code series}. */
  static double[] halves(double[] series) {
    int h = series.length / 2;
    double a = 0;
    double b = 0;
    for (int i = 0; i < series.length; i++) {
      if (i < h) {
        a += series[i];
      } else {
        b += series[i];
      }
    }
    return new double[] {h == 0 ? Double.NaN : a / h,
        series.length - h == 0 ? Double.NaN : b / (series.length - h)};
  }

  /**
   * AC-P1: both selection strategies' testing throughput declines (the second half of the
   * measured seconds below the first), and their maxima differ only slightly.
   */
  static Claim p1(double[] roundRobin, double[] chooseBest, double rrMax, double cbMax,
      double same, String where) {
    double[] rr = halves(roundRobin);
    double[] cb = halves(chooseBest);
    boolean rrDown = rr[1] < rr[0];
    boolean cbDown = cb[1] < cb[0];
    double lo = Math.min(rrMax, cbMax);
    double hi = Math.max(rrMax, cbMax);
    boolean alike = lo > 0 && hi <= lo * (1 + same);
    List<String> fails = new ArrayList<>();
    if (!rrDown) {
      fails.add("round-robin's throughput does not decline");
    }
    if (!cbDown) {
      fails.add("choose-best's throughput does not decline");
    }
    if (!alike) {
      fails.add("the maxima differ by more than " + Numbers.format(same * 100) + "%");
    }
    String ours = "testing writes/s, first half → second half: round-robin " + Numbers.format(
        rr[0]) + " → " + Numbers.format(rr[1]) + ", choose-best " + Numbers.format(cb[0])
        + " → " + Numbers.format(cb[1]) + "; maxima " + Numbers.format(rrMax) + " and "
        + Numbers.format(cbMax) + " (" + Numbers.format(hi / lo) + "×)";
    return Claim.judged("AC-P1", "Partitioned leveling: unfixed testing throughput declines"
        + " over the run; round-robin ≈ choose-best" + where, "declining for both; little"
        + " impact of the strategy", ours, "second half below the first for both; maxima"
        + " within " + Numbers.format(same * 100) + "%", fails.isEmpty(), fails.isEmpty()
            ? "both decline and their maxima agree" : String.join("; ", fails));
  }

  /** The size target of level {@code i} >= 1 of the partitioned-leveling policy of {@code c}. */
  static double levelTarget(TwoPhaseConfig c, int level) {
    Map<String, String> p = c.dataset().store().mergePolicy().parameters();
    int ratio = Integer.parseInt(p.getOrDefault("size-ratio", "10"));
    long l1 = ByteSize.parse("level1-size", p.getOrDefault("level1-size", "0")).bytes();
    double base = l1 > 0 ? l1 : (double) ratio * c.dataset().store().memoryComponent().size()
        .bytes();
    return base * Math.pow(ratio, level - 1);
  }

  /**
   * Each intermediate level's size over its target, averaged over the testing phase's samples
   * after the warm-up (levels 1 to the deepest but one; a level absent from a sample counts 0).
   */
  static SortedMap<Integer, Double> outgrowth(Observation testing, TwoPhaseConfig c) {
    List<SortedMap<Integer, Long>> samples = testing.levelSamples();
    int from = Math.min(samples.size(), c.testing().warmupSeconds());
    int deepest = 0;
    for (SortedMap<Integer, Long> s : samples) {
      deepest = Math.max(deepest, s.isEmpty() ? 0 : s.lastKey());
    }
    SortedMap<Integer, Double> out = new TreeMap<>();
    List<SortedMap<Integer, Long>> measured = samples.subList(from, samples.size());
    for (int level = 1; level < deepest && !measured.isEmpty(); level++) {
      double sum = 0;
      for (SortedMap<Integer, Long> s : measured) {
        sum += s.getOrDefault(level, 0L) / levelTarget(c, level);
      }
      out.put(level, sum / measured.size());
    }
    return out;
  }

  /**
   * AC-P3 from the unfixed testing phase's merges and level sizes: level-0 merges take more than
   * the trigger's count of components on average, and every intermediate level averages at least
   * {@code outgrow} times its target.
   */
  static Claim p3(List<MergeRecord> merges, boolean logComplete,
      SortedMap<Integer, Double> unfixed, SortedMap<Integer, Double> fixed, int trigger,
      double outgrow, String where) {
    long n = 0;
    long inputs = 0;
    int most = 0;
    for (MergeRecord r : merges) {
      if (r.levelZeroInputs() > 0) {
        n++;
        inputs += r.levelZeroInputs();
        most = Math.max(most, r.levelZeroInputs());
      }
    }
    double mean = n == 0 ? Double.NaN : (double) inputs / n;
    boolean wide = n > 0 && mean > trigger;
    boolean grown = !unfixed.isEmpty() && unfixed.values().stream().allMatch(v -> v >= outgrow);
    List<String> fails = new ArrayList<>();
    if (!wide) {
      fails.add(n == 0 ? "no level-0 merge completed" : "level-0 merges took "
          + Numbers.format(mean) + " components on average, not more than " + trigger);
    }
    if (!grown) {
      fails.add(unfixed.isEmpty() ? "the tree had no intermediate level"
          : "not every intermediate level averaged " + Numbers.format(outgrow) + "× its target");
    }
    String ours = n + " level-0 merges took " + Numbers.format(mean) + " level-0 components on"
        + " average (most " + most + ")" + (logComplete ? "" : " (the last of the phase's merges:"
            + " the merge log keeps 1,000)") + "; size over target, averaged after the warm-up: "
        + ratios(unfixed) + " (the exactly-4 run: " + ratios(fixed) + ")";
    return Claim.judged("AC-P3", "Partitioned leveling: L0→L1 merges involve more than "
        + trigger + " components on average; intermediate levels outgrow their targets" + where,
        "> " + trigger + " components (up to 12); intermediate levels above target", ours,
        "mean > " + trigger + "; every intermediate level ≥ " + Numbers.format(outgrow)
            + "× its target", fails.isEmpty(), fails.isEmpty()
            ? "wide level-0 merges and outgrown intermediate levels" : String.join("; ", fails));
  }

  private static String ratios(SortedMap<Integer, Double> m) {
    if (m.isEmpty()) {
      return "no intermediate level";
    }
    List<String> s = new ArrayList<>();
    m.forEach((level, r) -> s.add("L" + level + " " + Numbers.format(r) + "×"));
    return String.join(", ", s);
  }

  // ---- AC-P5: the partition-size sweep -------------------------------------------------------

  /** The paper's memory component (128 MB), against which file sizes are scaled. */
  static final long PAPER_MEMORY_COMPONENT = 128L << 20;

  /**
   * AC-P5's run at one file size: {@code base} (the exactly-L0 run) with {@code file-size} set to
   * {@code fileSize} in its policy and in its testing phase's policy.
   */
  static JsonNode partitionSize(JsonNode base, String fileSize, String paperSize) {
    ObjectNode c = base.deepCopy();
    c.put("name", "partition-size-" + fileSize);
    c.put("description", "AC-P5: " + base.path("name").asText() + " with files of " + fileSize
        + " (the paper's " + paperSize + " at its 128 MB memory component), testing and running"
        + " alike");
    c.withObjectProperty("dataset").withObjectProperty("merge-policy")
        .withObjectProperty("parameters").put("file-size", fileSize);
    JsonNode testingPolicy = c.path("testing").path("merge-policy");
    if (testingPolicy.isObject()) {
      ((ObjectNode) testingPolicy).withObjectProperty("parameters").put("file-size", fileSize);
    }
    return c;
  }

  /** {@code bytes} as the largest whole unit: 32KB, 64MB, 32GB (else bytes). */
  static String sizeText(long bytes) {
    String[] units = {"GB", "MB", "KB"};
    int[] shifts = {30, 20, 10};
    for (int i = 0; i < units.length; i++) {
      long unit = 1L << shifts[i];
      if (bytes >= unit && bytes % unit == 0) {
        return (bytes / unit) + " " + units[i];
      }
    }
    return bytes + " B";
  }

  /**
   * One point of AC-P5's sweep.
   *
   * @param fileSize the file size as configured
   * @param paperSize the paper's file size it stands for
   * @param testingMax the testing maximum, writes/s
   * @param p99Millis the running phase's p99 write latency
   * @param stalls the running phase's stalls
   * @param stallSeconds and their seconds
   */
  record PartitionPoint(String fileSize, String paperSize, double testingMax, double p99Millis,
      long stalls, double stallSeconds) {}

  /**
   * AC-P5 from the sweep, smallest files first: the testing maxima flat (the highest within
   * {@code same} of the lowest, AC-F2's "differs only slightly") and the running p99 at the
   * largest files at least {@link #MUCH}× that at the smallest (AC-F7's "much").
   */
  static Claim p5(List<PartitionPoint> points, double same, String where) {
    double lo = Double.MAX_VALUE;
    double hi = 0;
    List<String> parts = new ArrayList<>();
    for (PartitionPoint p : points) {
      lo = Math.min(lo, p.testingMax());
      hi = Math.max(hi, p.testingMax());
      parts.add(p.fileSize() + " (" + p.paperSize() + "): " + Numbers.format(p.testingMax())
          + " writes/s, p99 " + Numbers.format(p.p99Millis()) + " ms, " + p.stalls()
          + " stalls (" + Numbers.format(p.stallSeconds()) + " s)");
    }
    PartitionPoint small = points.get(0);
    PartitionPoint large = points.get(points.size() - 1);
    boolean flat = lo > 0 && hi <= lo * (1 + same);
    boolean grows = large.p99Millis() > 0 && large.p99Millis() >= MUCH * small.p99Millis();
    List<String> fails = new ArrayList<>();
    if (!flat) {
      fails.add("the testing maxima differ by " + Numbers.format(hi / lo) + "×, more than "
          + Numbers.format(same * 100) + "%");
    }
    if (!grows) {
      fails.add("p99 at " + large.fileSize() + " is " + Numbers.format(large.p99Millis()
          / small.p99Millis()) + "× that at " + small.fileSize() + ", not "
          + Numbers.format(MUCH) + "×");
    }
    String ours = String.join("; ", parts) + "; highest/lowest maximum "
        + Numbers.format(hi / lo) + "×, p99 " + large.fileSize() + "/" + small.fileSize() + " "
        + Numbers.format(large.p99Millis() / small.p99Millis()) + "×";
    return Claim.judged("AC-P5", "Partitioned leveling, partition-size sweep (the paper: files of"
        + " 8 MB to 32 GB): testing throughput about flat; running p99 write latency markedly"
        + " larger for very large partitions" + where, "flat; p99 grows for very large"
        + " partitions", ours, "testing maxima: highest within " + Numbers.format(same * 100)
        + "% of lowest (AC-F2's \"differs only slightly\"); running p99 at the largest files ≥ "
        + Numbers.format(MUCH) + "× that at the smallest (AC-F7's \"much\")", fails.isEmpty(),
        fails.isEmpty() ? "flat maxima, and large files raise p99" : String.join("; ", fails));
  }

  // ---- AC-X4: secondary-index queries --------------------------------------------------------

  /**
   * AC-X4's run of one secondary-index dataset: {@code base} (secondary.lazy or .eager) at the
   * arrival rate of {@code measured}'s running phase under fair at {@code utilization}, fair and
   * greedy, after a two-second testing phase that is not read.
   */
  static JsonNode secondaryQueries(JsonNode base, Run measured, double utilization) {
    ObjectNode c = base.deepCopy();
    c.put("name", measured.config().name() + "-queries");
    c.put("description", "AC-X4: " + measured.config().name() + " with secondary-index queries"
        + " alongside, at its running rate under fair at " + Numbers.format(utilization * 100)
        + "%; the testing phase is not read");
    ObjectNode testing = c.withObjectProperty("testing");
    testing.put("duration-seconds", 2);
    testing.put("warmup-seconds", 1);
    ObjectNode running = c.withObjectProperty("running");
    running.remove("utilizations");
    running.put("rate", measured.running("fair", utilization).arrivalRate());
    return c;
  }

  /** Greedy's query throughput over fair's at each selectivity of {@code byScheduler}. */
  static Map<String, Double> gains(Map<String, Map<String, QueryStat>> byScheduler) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String k : byScheduler.get("fair").keySet()) {
      double f = byScheduler.get("fair").get(k).throughput();
      double g = byScheduler.get("greedy").get(k).throughput();
      out.put(k, f > 0 ? g / f : Double.NaN);
    }
    return out;
  }

  /**
   * AC-X4 from secondary-query throughput by strategy ({@code lazy}, {@code eager}), scheduler and
   * selectivity: greedy at least fair's at every selectivity under both strategies, and eager's
   * gap smaller than lazy's, a strategy's gap being greedy's throughput over fair's averaged over
   * the selectivities.
   */
  static Claim x4(Map<String, Map<String, Map<String, QueryStat>>> q, String where) {
    List<String> fails = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    Map<String, Double> mean = new LinkedHashMap<>();
    for (String strategy : List.of("lazy", "eager")) {
      Map<String, Map<String, QueryStat>> m = q.get(strategy);
      Map<String, Double> gains = gains(m);
      List<String> parts = new ArrayList<>();
      double sum = 0;
      for (Map.Entry<String, Double> e : gains.entrySet()) {
        double f = m.get("fair").get(e.getKey()).throughput();
        double g = m.get("greedy").get(e.getKey()).throughput();
        parts.add(e.getKey() + ": " + Numbers.format(f) + " → " + Numbers.format(g) + " ("
            + Numbers.format(e.getValue()) + "×)");
        if (!(f > 0 && g >= f)) {
          fails.add(strategy + " selectivity " + e.getKey() + ": greedy/fair "
              + Numbers.format(e.getValue()));
        }
        sum += e.getValue();
      }
      mean.put(strategy, sum / gains.size());
      ours.add(strategy + " " + String.join(", ", parts) + ", mean "
          + Numbers.format(mean.get(strategy)) + "×");
    }
    if (!(mean.get("eager") < mean.get("lazy"))) {
      fails.add("eager's gap (mean greedy/fair " + Numbers.format(mean.get("eager"))
          + "×) is not smaller than lazy's (" + Numbers.format(mean.get("lazy")) + "×)");
    }
    return Claim.judged("AC-X4", "Secondary-index query throughput greedy ≥ fair at every"
        + " selectivity (1 to 1000), with a smaller gap under eager" + where, "greedy ≥ fair;"
        + " smaller improvement under eager", "queries/s fair → greedy by selectivity (records"
        + " per query): " + String.join("; ", ours), "greedy ≥ fair for each strategy and"
        + " selectivity; eager's greedy/fair, averaged over the selectivities, below lazy's",
        fails.isEmpty(), fails.isEmpty() ? "greedy never below fair, and gains less under eager"
            : String.join("; ", fails));
  }

  // ---- AC-F9, AC-F10: queries ----------------------------------------------------------------

  /** Queries by scheduler and kind, from the running phases of a run with query slices. */
  static Map<String, Map<String, QueryStat>> queries(Run run) {
    Map<String, Map<String, QueryStat>> out = new LinkedHashMap<>();
    for (String s : QUERY_SCHEDULERS) {
      out.put(s, run.runningObservation(run.running(s, Double.NaN)).queries());
    }
    return out;
  }

  /**
   * AC-F9 from query throughput by policy ({@code tiering}, {@code leveling}), scheduler and
   * kind: point lookups leveling ≈ tiering (within {@code same}) under each scheduler; short and
   * long scans leveling at least {@link #MUCH}× tiering under each scheduler; greedy at least
   * fair for every policy and kind.
   */
  static Claim f9(Map<String, Map<String, Map<String, QueryStat>>> q, double same,
      String where) {
    List<String> fails = new ArrayList<>();
    StringBuilder ours = new StringBuilder("queries/s");
    for (String policy : List.of("tiering", "leveling")) {
      for (String s : QUERY_SCHEDULERS) {
        Map<String, QueryStat> m = q.get(policy).get(s);
        ours.append(ours.length() == 9 ? ": " : "; ").append(policy).append(' ').append(s)
            .append(' ');
        List<String> parts = new ArrayList<>();
        for (String k : KINDS) {
          parts.add(k + " " + Numbers.format(m.get(k).throughput()));
        }
        ours.append(String.join(", ", parts));
      }
    }
    for (String s : QUERY_SCHEDULERS) {
      double t = q.get("tiering").get(s).get("point").throughput();
      double l = q.get("leveling").get(s).get("point").throughput();
      double lo = Math.min(t, l);
      double hi = Math.max(t, l);
      if (!(lo > 0 && hi <= lo * (1 + same))) {
        fails.add("point lookups under " + s + ": leveling/tiering " + Numbers.format(l / t));
      }
      for (String k : List.of("short-scan", "long-scan")) {
        double ts = q.get("tiering").get(s).get(k).throughput();
        double ls = q.get("leveling").get(s).get(k).throughput();
        if (!(ls >= MUCH * ts && ls > 0)) {
          fails.add(k + " under " + s + ": leveling/tiering " + Numbers.format(ls / ts));
        }
      }
    }
    for (String policy : List.of("tiering", "leveling")) {
      for (String k : KINDS) {
        double f = q.get(policy).get("fair").get(k).throughput();
        double g = q.get(policy).get("greedy").get(k).throughput();
        if (!(g >= f)) {
          fails.add(policy + " " + k + ": greedy/fair " + Numbers.format(g / f));
        }
      }
    }
    return Claim.judged("AC-F9", "Query throughput: point lookups leveling ≈ tiering, scans"
        + " leveling ≫ tiering, greedy ≥ fair for every query type" + where, "orderings of"
        + " query throughput", ours.toString(), "point within " + Numbers.format(same * 100)
        + "%; short and long scans leveling ≥ " + Numbers.format(MUCH) + "× tiering (AC-F7's"
        + " \"much\"); greedy ≥ fair for each policy and kind", fails.isEmpty(), fails.isEmpty()
            ? "every ordering holds" : "fails: " + String.join("; ", fails));
  }

  /**
   * AC-F10 from leveling's queries with a force every {@code force-bytes} ({@code forced}) and
   * with a force only at the end ({@code atEnd}), by scheduler and kind: throughput slightly
   * lower with forcing (not above, and within {@code same}) and p99 latency at most 1/{@link
   * #MUCH} of that without, for every scheduler and kind.
   */
  static Claim f10(Map<String, Map<String, QueryStat>> forced,
      Map<String, Map<String, QueryStat>> atEnd, double same, String where) {
    List<String> fails = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    for (String s : QUERY_SCHEDULERS) {
      for (String k : KINDS) {
        QueryStat f = forced.get(s).get(k);
        QueryStat e = atEnd.get(s).get(k);
        ours.add(s + " " + k + ": " + Numbers.format(f.throughput()) + " vs "
            + Numbers.format(e.throughput()) + "/s, p99 " + Numbers.format(f.p99Millis())
            + " vs " + Numbers.format(e.p99Millis()) + " ms");
        boolean slightly = f.throughput() <= e.throughput()
            && f.throughput() >= e.throughput() * (1 - same) && e.throughput() > 0;
        if (!slightly) {
          fails.add(s + " " + k + " throughput " + Numbers.format(f.throughput()
              / e.throughput()) + "×");
        }
        if (!(f.p99Millis() * MUCH <= e.p99Millis())) {
          fails.add(s + " " + k + " p99 " + Numbers.format(f.p99Millis() / e.p99Millis())
              + "×");
        }
      }
    }
    return Claim.judged("AC-F10", "Forcing every 16 MB instead of only at a merge's end gives"
        + " slightly lower query throughput but much lower query-latency percentiles" + where,
        "lower query-latency percentiles", "forced vs at end only, leveling: "
            + String.join("; ", ours), "throughput with forcing not above and within "
            + Numbers.format(same * 100) + "% of without; p99 at most 1/" + Numbers.format(MUCH)
            + " of without (AC-F7's \"much\"); every scheduler and kind", fails.isEmpty(),
        fails.isEmpty() ? "forcing lowers p99 at a slight cost" : "fails: "
            + String.join("; ", fails));
  }

  // ---- AC-X1 to AC-X3: secondary indexes -----------------------------------------------------

  /**
   * AC-X1: eager's testing maximum over lazy's against the paper's 7,601 / 9,731 = 0.78, within
   * {@code tolerance} (relative); lazy above eager follows, as 0.78 · (1 + tolerance) < 1.
   */
  static Claim x1(double lazyMax, double eagerMax, double tolerance, String where) {
    return Claim.numeric("AC-X1", "Secondary indexes: lazy testing throughput above eager's:"
        + " eager's maximum over lazy's (9,731 vs 7,601 writes/s in the paper; here "
        + Numbers.format(lazyMax) + " vs " + Numbers.format(eagerMax) + ")" + where,
        7601.0 / 9731.0, lazyMax > 0 ? eagerMax / lazyMax : Double.NaN,
        Tolerance.relative(tolerance));
  }

  /** Coefficient of variation of the writes completed per second while writes arrived. */
  static double variation(PhaseResult p, int durationSeconds) {
    List<Double> v = new ArrayList<>();
    for (PhaseSample s : p.samples()) {
      if (s.second() >= 1 && s.second() <= durationSeconds) {
        v.add((double) s.completed());
      }
    }
    double mean = v.stream().mapToDouble(d -> d).average().orElse(0);
    double var = v.stream().mapToDouble(d -> (d - mean) * (d - mean)).average().orElse(0);
    return mean == 0 ? Double.NaN : Math.sqrt(var) / mean;
  }

  /**
   * AC-X2 from the running phases at the utilization: {p99 ms, variation} by strategy ({@code
   * lazy}, {@code eager}) and scheduler. Lazy's p99 and variation below eager's under each
   * scheduler, and greedy's p99 below fair's under each strategy.
   */
  static Claim x2(Map<String, Map<String, double[]>> m, String where) {
    List<String> fails = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    for (String strategy : List.of("lazy", "eager")) {
      for (String s : QUERY_SCHEDULERS) {
        double[] v = m.get(strategy).get(s);
        ours.add(strategy + " " + s + " p99 " + Numbers.format(v[0]) + " ms, variation "
            + Numbers.format(v[1]));
      }
    }
    for (String s : QUERY_SCHEDULERS) {
      double[] lazy = m.get("lazy").get(s);
      double[] eager = m.get("eager").get(s);
      if (!(lazy[0] < eager[0])) {
        fails.add("under " + s + " lazy's p99 is not below eager's");
      }
      if (!(lazy[1] < eager[1])) {
        fails.add("under " + s + " lazy's throughput varies no less than eager's");
      }
    }
    for (String strategy : List.of("lazy", "eager")) {
      if (!(m.get(strategy).get("greedy")[0] < m.get(strategy).get("fair")[0])) {
        fails.add(strategy + ": greedy's p99 is not below fair's");
      }
    }
    return Claim.judged("AC-X2", "Secondary indexes at 95%: lazy stable with low latency, eager"
        + " fluctuating with higher p99; greedy p99 below fair's in both" + where, "orderings",
        String.join("; ", ours), "under each scheduler lazy's p99 and variation (of writes per"
            + " second) below eager's; greedy's p99 below fair's for both", fails.isEmpty(),
        fails.isEmpty() ? "every ordering holds" : String.join("; ", fails));
  }

  /**
   * AC-X3 from eager's p99 (ms) by scheduler and utilization: at every utilization below 0.8 it
   * is small ({@code smallMillis}), and at {@code top} at least {@link #MUCH}× the largest of
   * those.
   */
  static Claim x3(Map<String, SortedMap<Double, Double>> p99, double top, double smallMillis,
      String where) {
    List<String> fails = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    for (String s : QUERY_SCHEDULERS) {
      SortedMap<Double, Double> m = p99.get(s);
      List<String> parts = new ArrayList<>();
      m.forEach((u, v) -> parts.add(Numbers.format(u * 100) + "% " + Numbers.format(v)
          + " ms"));
      ours.add(s + " " + String.join(", ", parts));
      double below = m.headMap(0.8).values().stream().mapToDouble(d -> d).max()
          .orElse(Double.NaN);
      Double atTop = m.get(top);
      if (!(below <= smallMillis)) {
        fails.add(s + ": p99 below 80% is not small");
      }
      if (atTop == null || !(atTop >= MUCH * below)) {
        fails.add(s + ": p99 at " + Numbers.format(top * 100) + "% is not "
            + Numbers.format(MUCH) + "× that below 80%");
      }
    }
    return Claim.judged("AC-X3", "Eager p99 write latency small below about 80% utilization,"
        + " growing sharply toward 95%" + where, "knee near 80%", String.join("; ", ours),
        "below 80%: ≤ " + Numbers.format(smallMillis) + " ms; at " + Numbers.format(top * 100)
            + "%: ≥ " + Numbers.format(MUCH) + "× that (AC-F7's \"much\"), for each scheduler",
        fails.isEmpty(), fails.isEmpty() ? "small below 80%, much larger at the top"
            : String.join("; ", fails));
  }

  // ---- AC-X5: eager maintenance is exact -----------------------------------------------------

  /**
   * What the correctness run found.
   *
   * @param mode the maintenance
   * @param upserts upserts after the first writes
   * @param changed of them, those that changed at least one secondary value
   * @param staleEntries secondary entries without a matching record (DatasetVerifier)
   * @param faults disagreements DatasetVerifier found (at most 100 listed)
   * @param firstFault the first of them, or null
   * @param queries secondary queries run
   * @param wrong of them, those whose records differ from the records written with that value
   * @param firstWrong the first wrong query, or null
   */
  record Correctness(SecondaryMaintenance mode, long upserts, long changed, long staleEntries,
      int faults, String firstFault, int queries, int wrong, String firstWrong) {}

  /**
   * Writes {@code c.records()} records, then upserts each {@code c.rounds()} times with new
   * secondary values from as many values as records (the paper's uniform secondary fields), each
   * writer owning the records of its residue; then flushes, waits for merges, checks every
   * secondary entry (DatasetVerifier) and queries {@code c.queries()} values per index, each
   * answer compared with the records written.
   */
  static Correctness correctness(ReproductionContext ctx, DatasetConfig base,
      LuoCareyConfig.Correctness c, SecondaryMaintenance mode) throws Exception {
    StoreConfig store = base.store()
        .withIo(IoConfig.of(0, base.store().io().forceBytes().bytes(),
            (int) base.store().io().pageSize().bytes()))
        .withMemoryComponent(MemoryComponentConfig.of(c.memoryComponent(), 2))
        .withDurability(Durability.NONE);
    DatasetConfig dc = new DatasetConfig(store, base.secondaryIndexes(), mode,
        base.partitions());
    List<String> fields = new ArrayList<>();
    for (SecondaryIndexSpec s : dc.secondaryIndexes()) {
      fields.add(s.field());
    }
    String[][] current = new String[c.records()][fields.size()];
    Path dir = ctx.scratch("secondary-correctness-" + mode.name().toLowerCase(Locale.ROOT));
    ctx.log("luo-carey: AC-X5 correctness run, " + mode.name().toLowerCase(Locale.ROOT));
    AtomicLong changed = new AtomicLong();
    try (Dataset ds = Dataset.open(dir, dc)) {
      for (int round = 0; round <= c.rounds(); round++) {
        int r = round;
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        for (int w = 0; w < c.writers(); w++) {
          int writer = w;
          Thread t = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(31L * r + writer);
            try {
              for (int id = writer; id < c.records(); id += c.writers()) {
                Map<String, String> rec = new HashMap<>();
                boolean diff = false;
                for (int f = 0; f < fields.size(); f++) {
                  String v = Integer.toString(random.nextInt(c.records()));
                  diff |= r > 0 && !v.equals(current[id][f]);
                  current[id][f] = v;
                  rec.put(fields.get(f), v);
                }
                rec.put("payload", Long.toHexString(random.nextLong()));
                ds.upsert(RecordShape.key(id), rec);
                if (diff) {
                  changed.incrementAndGet();
                }
              }
            } catch (Exception e) {
              failure.compareAndSet(null, e);
            }
          }, "luo-carey-x5-" + w);
          t.start();
          threads.add(t);
        }
        for (Thread t : threads) {
          t.join();
        }
        if (failure.get() != null) {
          throw failure.get();
        }
      }
      ds.flush();
      ds.awaitMerges();
      DatasetVerifier.Report rep = ds.verify();
      long stale = rep.staleEntries().values().stream().mapToLong(Long::longValue).sum();
      int queries = 0;
      int wrong = 0;
      String firstWrong = null;
      SplittableRandom random = new SplittableRandom(7);
      for (int f = 0; f < fields.size(); f++) {
        String index = dc.secondaryIndexes().get(f).name();
        for (int i = 0; i < c.queries(); i++) {
          // half the values from a record (present), half from the whole domain
          String value = i % 2 == 0 ? current[random.nextInt(c.records())][f]
              : Integer.toString(random.nextInt(c.records()));
          java.util.SortedSet<String> expected = new java.util.TreeSet<>();
          for (int id = 0; id < c.records(); id++) {
            if (value.equals(current[id][f])) {
              expected.add(RecordShape.key(id));
            }
          }
          java.util.SortedSet<String> got = new java.util.TreeSet<>();
          boolean mismatch = false;
          for (DatasetRecord d : ds.queryEq(index, value)) {
            got.add(d.key());
            mismatch |= !value.equals(d.fields().get(fields.get(f)));
          }
          queries++;
          if (mismatch || !got.equals(expected)) {
            wrong++;
            if (firstWrong == null) {
              firstWrong = index + " = " + value + ": expected " + expected + ", got " + got;
            }
          }
        }
      }
      return new Correctness(mode, (long) c.rounds() * c.records(), changed.get(), stale,
          rep.faults().size(), rep.faults().isEmpty() ? null : rep.faults().get(0), queries,
          wrong, firstWrong);
    }
  }

  /**
   * AC-X5: under eager maintenance every secondary entry has its record (no stale entry, no
   * fault) after upserts that changed secondary values, and every query returned exactly the
   * records written with its value. {@code lazy} is reported for contrast.
   */
  static Claim x5(Correctness eager, Correctness lazy, String where) {
    List<String> fails = new ArrayList<>();
    if (eager.changed() == 0) {
      fails.add("no upsert changed a secondary value, so nothing needed cleaning");
    }
    if (eager.staleEntries() > 0) {
      fails.add(eager.staleEntries() + " stale secondary entries");
    }
    if (eager.faults() > 0) {
      fails.add(eager.faults() + " disagreement(s), the first: " + eager.firstFault());
    }
    if (eager.queries() == 0 || eager.wrong() > 0) {
      fails.add(eager.wrong() + " of " + eager.queries() + " queries wrong"
          + (eager.firstWrong() == null ? "" : ", the first: " + eager.firstWrong()));
    }
    String ours = "eager: " + eager.upserts() + " upserts (" + eager.changed() + " changed a"
        + " secondary value), " + eager.staleEntries() + " stale entries, " + eager.faults()
        + " faults, " + eager.wrong() + " of " + eager.queries() + " queries wrong" + (lazy == null
            ? "" : "; lazy, for contrast: " + lazy.staleEntries() + " stale entries (its queries"
                + " check the primary record: " + lazy.wrong() + " of " + lazy.queries()
                + " wrong)");
    return Claim.judged("AC-X5", "Eager maintenance never returns a record whose current"
        + " secondary value differs (anti-matter for old entries)" + where, "correct results",
        ours, "0 stale entries, 0 faults, every query exact", fails.isEmpty(), fails.isEmpty()
            ? "eager's secondary indexes hold exactly the live records' entries"
            : String.join("; ", fails));
  }
}
