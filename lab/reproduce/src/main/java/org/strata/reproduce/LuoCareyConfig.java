package org.strata.reproduce;

import java.util.List;
import java.util.Map;
import org.strata.sim.des.DesSetup;

/**
 * What {@code strata reproduce luo-carey} runs on the discrete-event simulator.
 *
 * @param tree the simulated tree and machine of the main experiments
 * @param duration simulated seconds of every testing and running phase (the paper: 7200)
 * @param utilization running-phase arrival rate as a fraction of the testing maximum (0.95)
 * @param tiering parameters of the tiering policy (T = 3, one merge per level, constraint 48)
 * @param leveling parameters of the leveling policy (T = 10, one merge per level)
 * @param sizeTiered parameters of the size-tiered policy (T = 1.2, min 2, max 10, cap 50)
 * @param sizeRatios the size ratios of AC-F6's sweep
 * @param smallP99Seconds a p99 write latency at or below this counts as "small" (our reading)
 * @param muchLarger "≫" means at least this many times larger (our reading)
 * @param almostEvery "at almost every sampled instant" allows this fraction of exceptions
 * @param sameThroughput "differs only slightly": maxima within this fraction of each other
 * @param burst AC-F8's bursty arrivals
 * @param pileUp AC-F11's single-thread analysis
 * @param figure18 AC-S4: the size-tiered policy on the example of the paper's Fig. 18
 * @param engine the engine's runs (AC-F9, AC-F10, AC-P1 to AC-P5, AC-X1 to AC-X5), or null to
 *     skip them
 */
public record LuoCareyConfig(Tree tree, double duration, double utilization,
    Map<String, String> tiering, Map<String, String> leveling, Map<String, String> sizeTiered,
    List<Integer> sizeRatios, double smallP99Seconds, double muchLarger, double almostEvery,
    double sameThroughput, Burst burst, PileUp pileUp, Figure18 figure18, Engine engine) {

  public LuoCareyConfig {
    check(tree != null && burst != null && pileUp != null && figure18 != null,
        "tree, burst, pileUp and figure18 are required");
    check(duration >= 60, "duration must be at least 60 simulated seconds, got " + duration);
    check(utilization > 0 && utilization <= 1, "utilization must be in (0, 1], got "
        + utilization);
    check(sizeRatios != null && sizeRatios.size() >= 2 && sizeRatios.stream().allMatch(
        t -> t >= 2), "sizeRatios must list at least two ratios of 2 or more, got "
        + sizeRatios);
    tiering = Map.copyOf(tiering);
    leveling = Map.copyOf(leveling);
    sizeTiered = Map.copyOf(sizeTiered);
    sizeRatios = List.copyOf(sizeRatios);
  }

  static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("luo-carey: " + message);
    }
  }

  /**
   * The runs on the engine, each a {@code strata two-phase} experiment (the configuration format
   * of docs/two-phase.md) unless said otherwise, for the claims the simulator cannot check.
   *
   * @param partitioned partitioned leveling (round-robin) measured and run with the same policy
   *     (AC-P1 to AC-P3)
   * @param partitionedExactlyL0 the same, its testing phase merging exactly the L0 trigger's
   *     count (AC-P3, AC-P4)
   * @param fixedRatioTolerance relative tolerance of the fixed-to-unfixed maximum ratio
   * @param partitionedChooseBest {@code partitioned} with {@code selection=choose-best}; only its
   *     testing phase is read (AC-P1)
   * @param outgrowFactor AC-P3: a level "outgrows" its target when its size, averaged over the
   *     testing phase after the warm-up, is at least this many times the target
   * @param outgrowChoice why {@code outgrowFactor} is what it is (our reading, set before any run)
   * @param queries AC-F9 and AC-F10: queries alongside the running phases
   * @param secondary AC-X1 to AC-X5: datasets with secondary indexes
   * @param partitionSizes AC-P5: {@code partitionedExactlyL0} at other file sizes
   * @param device the device model every engine run's store writes and reads through (a store's
   *     {@code device} section, set here once; no run may name its own), or null for none: the
   *     OS file cache then serves every read
   * @param deviceChoice why the device is what it is, set before any run on it; required with
   *     a device
   */
  public record Engine(com.fasterxml.jackson.databind.JsonNode partitioned,
      com.fasterxml.jackson.databind.JsonNode partitionedExactlyL0,
      double fixedRatioTolerance,
      com.fasterxml.jackson.databind.JsonNode partitionedChooseBest,
      double outgrowFactor, String outgrowChoice, Queries queries, Secondary secondary,
      PartitionSizes partitionSizes, com.fasterxml.jackson.databind.JsonNode device,
      String deviceChoice) {
    public Engine {
      device = DeviceSettings.device(device, "luo-carey engine");
      check(device == null || deviceChoice != null && !deviceChoice.isBlank(),
          "engine.deviceChoice must say why engine.device is what it is");
      check(partitioned != null && partitioned.isObject() && partitionedExactlyL0 != null
          && partitionedExactlyL0.isObject() && partitionedChooseBest != null
          && partitionedChooseBest.isObject(), "engine.partitioned,"
          + " engine.partitionedExactlyL0 and engine.partitionedChooseBest must be two-phase"
          + " configurations (JSON objects)");
      bind(partitioned, "partitioned", "partitioned-leveling");
      bind(partitionedExactlyL0, "partitionedExactlyL0", "partitioned-leveling-exactly-l0");
      bind(partitionedChooseBest, "partitionedChooseBest", "partitioned-leveling-choose-best");
      check(outgrowFactor > 1, "engine.outgrowFactor must be above 1, got " + outgrowFactor);
      check(outgrowChoice != null && !outgrowChoice.isBlank(), "engine.outgrowChoice must say"
          + " why engine.outgrowFactor is " + outgrowFactor);
      check(queries != null && secondary != null && partitionSizes != null, "engine.queries,"
          + " engine.secondary and engine.partitionSizes are required");
      Map<String, com.fasterxml.jackson.databind.JsonNode> runs = new java.util.LinkedHashMap<>();
      runs.put("partitioned", partitioned);
      runs.put("partitionedExactlyL0", partitionedExactlyL0);
      runs.put("partitionedChooseBest", partitionedChooseBest);
      runs.put("queries.tiering", queries.tiering());
      runs.put("queries.leveling", queries.leveling());
      runs.put("secondary.lazy", secondary.lazy());
      runs.put("secondary.eager", secondary.eager());
      runs.forEach((field, run) -> check(!run.path("dataset").has("device"), "engine." + field
          + ".dataset names a device of its own; set engine.device once, for every engine run"));
    }

    /** {@code run}, a two-phase configuration of this section, on this section's device. */
    com.fasterxml.jackson.databind.JsonNode onDevice(com.fasterxml.jackson.databind.JsonNode run) {
      if (device == null) {
        return run;
      }
      com.fasterxml.jackson.databind.node.ObjectNode copy =
          (com.fasterxml.jackson.databind.node.ObjectNode) run.deepCopy();
      copy.withObjectProperty("dataset").set("device", device.deepCopy());
      return copy;
    }

    /** The device in words for a report, or null without one. */
    String deviceText() {
      if (device == null) {
        return null;
      }
      org.strata.lsm.config.DeviceConfig d = DeviceSettings.model(device, "luo-carey engine");
      return d.name() + " (writes " + device.path("write-bandwidth").asText() + "/s, reads "
          + device.path("read-bandwidth").asText(device.path("write-bandwidth").asText())
          + "/s, a force " + Numbers.format(d.forceLatencyMs()) + " ms): " + deviceChoice;
    }
  }

  /**
   * AC-P5: the partition-size sweep (the paper: files of 8 MB to 32 GB, after the fix, so that
   * partitioned merges turn into full merges): {@code partitionedExactlyL0} run again with each
   * file size, testing and running alike; a size equal to its own is that run, not run again.
   *
   * @param fileSizes the file sizes, ascending, at least three (sizes such as {@code 32KB})
   * @param choice how the sizes were scaled from the paper's, and the readings of "flat" and
   *     "markedly", set before any run
   */
  public record PartitionSizes(List<String> fileSizes, String choice) {
    public PartitionSizes {
      check(fileSizes != null && fileSizes.size() >= 3, "engine.partitionSizes.fileSizes must"
          + " list at least three file sizes, ascending, got " + fileSizes);
      fileSizes = List.copyOf(fileSizes);
      long previous = 0;
      for (String f : fileSizes) {
        long b;
        try {
          b = org.strata.lsm.config.ByteSize.parse("engine.partitionSizes.fileSizes", f).bytes();
        } catch (RuntimeException e) {
          throw new IllegalArgumentException("luo-carey: engine.partitionSizes.fileSizes entry '"
              + f + "' is not a size such as 32KB or 64MB", e);
        }
        check(b > previous, "engine.partitionSizes.fileSizes must be positive and ascending, got "
            + fileSizes);
        previous = b;
      }
      check(choice != null && !choice.isBlank(), "engine.partitionSizes.choice must say how the"
          + " sizes were chosen and how \"flat\" and \"markedly\" are read");
    }

    /** The bytes of each file size, in order. */
    List<Long> bytes() {
      return fileSizes.stream().map(f -> org.strata.lsm.config.ByteSize.parse(
          "engine.partitionSizes.fileSizes", f).bytes()).toList();
    }
  }

  /**
   * AC-X4: secondary-index queries alongside the running phases of {@code secondary.lazy} and
   * {@code secondary.eager} (fair and greedy, at their 95% rate), one turn of {@code sliceSeconds}
   * per selectivity in each running phase (as AC-F9's kinds take turns).
   *
   * @param threads query threads (the paper: 8)
   * @param selectivities records per query (the paper: 1 to 1000), ascending
   * @param sliceSeconds how long each selectivity runs before the next takes over
   * @param index the secondary index queried (in both datasets)
   * @param choice why the turns and the gap's reading are what they are, set before any run
   */
  public record SecondaryQueries(int threads, List<Integer> selectivities, double sliceSeconds,
      String index, String choice) {
    public SecondaryQueries {
      check(threads >= 1 && threads <= 64, "engine.secondary.queries.threads must be 1 to 64,"
          + " got " + threads);
      check(selectivities != null && !selectivities.isEmpty(), "engine.secondary.queries"
          + ".selectivities must list records per query, e.g. [1, 10, 100, 1000]");
      selectivities = List.copyOf(selectivities);
      int previous = 0;
      for (int v : selectivities) {
        check(v > previous, "engine.secondary.queries.selectivities must be positive and"
            + " ascending, got " + selectivities);
        previous = v;
      }
      check(sliceSeconds > 0, "engine.secondary.queries.sliceSeconds must be above 0, got "
          + sliceSeconds);
      check(index != null && !index.isBlank(), "engine.secondary.queries.index must name a"
          + " secondary index");
      check(choice != null && !choice.isBlank(), "engine.secondary.queries.choice must say why"
          + " the turns and the gap's reading are what they are");
    }
  }

  /** Binds a two-phase configuration of the engine section, naming it on error. */
  static org.strata.twophase.TwoPhaseConfig bind(
      com.fasterxml.jackson.databind.JsonNode config, String field, String name) {
    try {
      return org.strata.twophase.TwoPhaseConfigJson.bind(config, "luo-carey engine." + field,
          name);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("luo-carey: engine." + field + ": " + e.getMessage(), e);
    }
  }

  /**
   * AC-F9 and AC-F10: point lookups, short scans and long scans alongside the writes of the
   * running phases (the paper: one kind per experiment, 8, 8 and 4 threads; here the kinds take
   * turns of {@code sliceSeconds} within each running phase, so that one phase per scheduler
   * measures all three on the same tree).
   *
   * @param tiering tiering T = 3: testing with fair, fair and greedy at 95%
   * @param leveling leveling T = 10, the same phases; AC-F10's run is this one with {@code
   *     io.force-bytes} 0 (a force only at the end of each flush and merge), at the same arrival
   *     rate
   * @param sliceSeconds how long each kind runs before the next takes over
   * @param pointThreads query threads of point lookups (the paper: 8)
   * @param shortScanThreads of short scans (8)
   * @param shortScanLength records per short scan (100)
   * @param longScanThreads of long scans (4)
   * @param longScanLength records per long scan (the paper: 1 M of its 100 M)
   * @param choice why the slices and the long scan's length are what they are
   */
  public record Queries(com.fasterxml.jackson.databind.JsonNode tiering,
      com.fasterxml.jackson.databind.JsonNode leveling, double sliceSeconds, int pointThreads,
      int shortScanThreads, int shortScanLength, int longScanThreads, int longScanLength,
      String choice) {
    public Queries {
      check(tiering != null && tiering.isObject() && leveling != null && leveling.isObject(),
          "engine.queries.tiering and engine.queries.leveling must be two-phase configurations"
              + " (JSON objects)");
      org.strata.twophase.TwoPhaseConfig t = bind(tiering, "queries.tiering",
          "queries-tiering");
      org.strata.twophase.TwoPhaseConfig l = bind(leveling, "queries.leveling",
          "queries-leveling");
      for (org.strata.twophase.TwoPhaseConfig c : List.of(t, l)) {
        check(c.running().queries().threads() == 0, "engine.queries." + c.name() + ": leave"
            + " running.queries out; the reproduction runs the queries itself");
        check(c.running().rate() == 0 && c.running().bursts() == null
            && c.running().utilizations().size() == 1, "engine.queries." + c.name()
            + ": running phases at one utilization");
        check(c.running().schedulers().stream().map(n -> n.name()).toList().containsAll(
            List.of("fair", "greedy")), "engine.queries." + c.name() + ": running phases need"
            + " the fair and greedy schedulers");
      }
      check(sliceSeconds > 0 && sliceSeconds * 3 <= l.running().durationSeconds()
          && sliceSeconds * 3 <= t.running().durationSeconds(), "engine.queries.sliceSeconds"
          + " must be above 0 and leave every kind a turn in a running phase, got "
          + sliceSeconds);
      check(pointThreads >= 1 && shortScanThreads >= 1 && longScanThreads >= 1
          && pointThreads <= 64 && shortScanThreads <= 64 && longScanThreads <= 64,
          "engine.queries: 1 to 64 threads of each kind");
      check(shortScanLength >= 1 && longScanLength >= 1, "engine.queries: scans of at least"
          + " one record");
      check(choice != null && !choice.isBlank(), "engine.queries.choice must say why the"
          + " slices and the long scan's length are what they are");
    }
  }

  /**
   * AC-X1 to AC-X3 and AC-X5: a primary index and secondary indexes, tiering on each.
   *
   * @param lazy lazy maintenance: testing with fair, fair and greedy at 95%
   * @param eager eager maintenance: the same, and at a utilization below 80% as well (AC-X3)
   * @param ratioTolerance AC-X1: relative tolerance of eager's maximum over lazy's
   * @param correctness AC-X5's run
   * @param queries AC-X4's secondary-index queries
   */
  public record Secondary(com.fasterxml.jackson.databind.JsonNode lazy,
      com.fasterxml.jackson.databind.JsonNode eager, double ratioTolerance,
      Correctness correctness, SecondaryQueries queries) {
    public Secondary {
      check(lazy != null && lazy.isObject() && eager != null && eager.isObject(),
          "engine.secondary.lazy and engine.secondary.eager must be two-phase configurations"
              + " (JSON objects)");
      org.strata.twophase.TwoPhaseConfig l = bind(lazy, "secondary.lazy",
          "secondary-lazy");
      org.strata.twophase.TwoPhaseConfig e = bind(eager, "secondary.eager",
          "secondary-eager");
      check(l.dataset().secondaryIndexes().size() >= 1
          && l.dataset().maintenance() == org.strata.lsm.dataset.SecondaryMaintenance.LAZY,
          "engine.secondary.lazy: a dataset with secondary indexes and lazy maintenance");
      check(e.dataset().secondaryIndexes().size() >= 1
          && e.dataset().maintenance() == org.strata.lsm.dataset.SecondaryMaintenance.EAGER,
          "engine.secondary.eager: a dataset with secondary indexes and eager maintenance");
      for (org.strata.twophase.TwoPhaseConfig c : List.of(l, e)) {
        check(c.running().schedulers().stream().map(n -> n.name()).toList().containsAll(
            List.of("fair", "greedy")) && c.running().utilizations().contains(0.95),
            "engine.secondary." + c.name() + ": running phases under fair and greedy at 0.95");
      }
      check(e.running().utilizations().stream().anyMatch(u -> u < 0.8), "engine.secondary"
          + ".eager: running.utilizations needs one below 0.8 (AC-X3)");
      check(ratioTolerance > 0 && ratioTolerance < 1, "engine.secondary.ratioTolerance must be"
          + " in (0, 1), got " + ratioTolerance);
      check(correctness != null, "engine.secondary.correctness is required");
      check(queries != null, "engine.secondary.queries is required");
      for (org.strata.twophase.TwoPhaseConfig c : List.of(l, e)) {
        List<String> names = c.dataset().secondaryIndexes().stream()
            .map(org.strata.lsm.dataset.SecondaryIndexSpec::name).toList();
        check(names.contains(queries.index()), "engine.secondary.queries.index '"
            + queries.index() + "' is not a secondary index of engine.secondary." + c.name()
            + " (it has " + String.join(", ", names) + ")");
        check(queries.selectivities().get(queries.selectivities().size() - 1)
            <= c.load().records(), "engine.secondary.queries.selectivities: at most the "
            + c.load().records() + " records of engine.secondary." + c.name() + ", got "
            + queries.selectivities());
        check(queries.sliceSeconds() * queries.selectivities().size()
            <= c.running().durationSeconds(), "engine.secondary.queries.sliceSeconds must leave"
            + " every selectivity a turn in a running phase of engine.secondary." + c.name()
            + " (" + c.running().durationSeconds() + " s), got " + queries.sliceSeconds());
        check(c.running().queries().threads() == 0, "engine.secondary." + c.name() + ": leave"
            + " running.queries out; the reproduction runs the queries itself");
      }
    }
  }

  /**
   * AC-X5: upserts that change secondary values, on a dataset with the eager dataset's indexes
   * (and, for contrast, on one with lazy maintenance), then a check of every secondary entry and
   * of secondary queries against the records written. Runs unthrottled: correctness does not
   * depend on the I/O budget.
   *
   * @param records records written first
   * @param rounds times every record is then upserted with new secondary values
   * @param writers writer threads (each owns the records whose number it is congruent to)
   * @param memoryComponent memory component bytes (small, so that flushes and merges happen)
   * @param queries secondary values queried per index
   */
  public record Correctness(int records, int rounds, int writers, long memoryComponent,
      int queries) {
    public Correctness {
      check(records >= 10 && records <= 10_000_000, "engine.secondary.correctness.records must"
          + " be 10 to 10,000,000, got " + records);
      check(rounds >= 1 && rounds <= 100, "engine.secondary.correctness.rounds must be 1 to 100,"
          + " got " + rounds);
      check(writers >= 1 && writers <= 64, "engine.secondary.correctness.writers must be 1 to"
          + " 64, got " + writers);
      check(memoryComponent >= 4096, "engine.secondary.correctness.memoryComponent must be at"
          + " least 4096 bytes, got " + memoryComponent);
      check(queries >= 1, "engine.secondary.correctness.queries must be at least 1, got "
          + queries);
    }
  }

  /**
   * AC-S4: the size-tiered policy run twice on the components of the paper's Fig. 18, the
   * second time with the first merge's inputs still merging.
   *
   * @param sizeRatio T (the paper: 1.2)
   * @param minMerge min (2)
   * @param maxMerge max (4)
   * @param components the components, oldest first: a size such as {@code 10GB}, or a range
   *     {@code 5GB..10GB} for a component whose size is only in the figure, run at both ends and
   *     the middle of the range (every combination)
   * @param sizesChoice how the components were constructed from the paper's text
   */
  public record Figure18(double sizeRatio, int minMerge, int maxMerge, List<String> components,
      String sizesChoice) {
    public Figure18 {
      check(sizeRatio > 0 && minMerge >= 2 && maxMerge >= minMerge, "figure18: sizeRatio above"
          + " 0 and 2 <= minMerge <= maxMerge");
      check(components != null && components.size() >= 2, "figure18.components must list the"
          + " components, oldest first");
      components = List.copyOf(components);
      for (String c : components) {
        Figure18Run.range(c); // refuses a bad size, naming it
      }
      check(sizesChoice != null && !sizesChoice.isBlank(), "figure18.sizesChoice must say how"
          + " the sizes were constructed");
    }
  }

  /**
   * A simulated tree and machine.
   *
   * @param entries entries loaded
   * @param entrySize bytes per entry
   * @param memoryComponentBytes M
   * @param bandwidth B, bytes/s for flushes and merges
   */
  public record Tree(long entries, int entrySize, long memoryComponentBytes, double bandwidth) {
    /** The simulator's setup: the paper's with these sizes. */
    public DesSetup setup() {
      return DesSetup.paper().withSizes(entries, entrySize, memoryComponentBytes, bandwidth);
    }
  }

  /**
   * AC-F8: leveling under greedy with alternating arrival rates, writes as soon as possible
   * against writes limited to {@code limitRate}.
   *
   * @param tree the simulated tree (the per-write comparison keeps every write's latency)
   * @param lowRate writes/s of the quiet segment
   * @param lowSeconds its length
   * @param highRate writes/s of the burst
   * @param highSeconds its length
   * @param limitRate the limit
   * @param duration simulated seconds
   */
  public record Burst(Tree tree, double lowRate, double lowSeconds, double highRate,
      double highSeconds, double limitRate, double duration) {}

  /**
   * AC-F11: one merge thread, leveling, no constraint, arrivals at 2B/(T·L).
   *
   * @param tree the simulated tree
   * @param sizeRatio T
   * @param levels L, and the level whose merge is watched
   * @param duration simulated seconds
   */
  public record PileUp(Tree tree, int sizeRatio, int levels, double duration) {}
}
