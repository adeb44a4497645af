package org.strata.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StoreStats;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.component.MonkeyAllocation;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.BloomFilterConfig;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.LevelShape;
import org.strata.lsm.spi.RunInfo;
import org.strata.policy.tuning.DostoevskyCostModel;
import org.strata.policy.tuning.DostoevskyTuner;
import org.strata.policy.tuning.FluidCosts;
import org.strata.policy.tuning.LsmShape;
import org.strata.policy.tuning.Workload;

/**
 * Dayan & Idreos's trade-off on the real engine: the same uniformly random upserts under tiering,
 * lazy leveling and leveling (one size ratio), then zero-result point lookups with Bloom filters
 * on and no page cache (so every page a lookup reads is read from its file and counted). Update
 * cost is the engine's write amplification, lookup cost the pages read per lookup, space
 * amplification the disk entries (obsolete versions included) per live key. The tuner's choice
 * for an update-heavy and a lookup-heavy workload is checked against the designs the paper says
 * it should pick.
 */
public final class DostoevskyReproduction implements PaperReproduction {
  private static final List<String> DESIGNS = List.of("tiering", "lazy-leveling", "leveling");

  /** The size-ratio sweep's figure and its table for the notes. */
  private record Sweep(Figure figure, String table) {}

  /**
   * What one design measured on the engine.
   *
   * @param filterPasses per zero-result lookup, the disk components whose Bloom filter let the
   *     key through and whose key range holds it: the runs the lookup reads, the paper's R (one I/O
   *     each with fence pointers in memory)
   */
  record Measured(String design, double writeAmplification, double pagesPerLookup,
      double spaceAmplification, int runs, long merges, double filterPasses, int levels) {

    /** The engine's cost of a workload in the tuner's units: w·W + r·R, W = WA / B. */
    double cost(DostoevskyConfig.Mix mix, double entriesPerPage) {
      double total = mix.updates() + mix.zeroResultLookups();
      return (mix.updates() * writeAmplification / entriesPerPage
          + mix.zeroResultLookups() * filterPasses) / total;
    }
  }

  @Override
  public String name() {
    return "dostoevsky";
  }

  @Override
  public String title() {
    return "Dayan & Idreos, \"Dostoevsky: Better Space-Time Trade-Offs for LSM-Tree Based"
        + " Key-Value Stores via Adaptive Removal of Superfluous Merging\" (SIGMOD 2018)";
  }

  @Override
  public String source() {
    return "docs/papers/dostoevsky.md#checks (items 3, 4, 5 and 7)";
  }

  @Override
  public void validate(JsonNode config) {
    PaperConfigs.read(config, DostoevskyConfig.class, name());
  }

  @Override
  public PaperResult run(JsonNode config, ReproductionContext ctx) throws Exception {
    DostoevskyConfig cfg = PaperConfigs.read(config, DostoevskyConfig.class, name());
    Map<String, Measured> m = new LinkedHashMap<>();
    for (String design : DESIGNS) {
      Measured r = measure(design, cfg, ctx);
      m.put(design, r);
      ctx.log(String.format(java.util.Locale.ROOT, "dostoevsky: %s T=%d: write amplification"
          + " %.3f, pages per zero-result lookup %.4f, space amplification %.3f, %d runs",
          design, cfg.sizeRatio(), r.writeAmplification(), r.pagesPerLookup(),
          r.spaceAmplification(), r.runs()));
    }
    Measured tier = m.get("tiering");
    Measured lazy = m.get("lazy-leveling");
    Measured lev = m.get("leveling");
    double margin = cfg.orderingMargin();
    String order = "strictly lower, by at least " + Numbers.format(margin * 100) + "%";
    List<Claim> claims = new ArrayList<>();
    LsmShape paperShape = new LsmShape(Math.pow(2, 33), 32, 512, 10, 1, 1);
    FluidCosts mTier = DostoevskyCostModel.evaluate(paperShape, 0, 10, 9, 9);
    FluidCosts mLazy = DostoevskyCostModel.evaluate(paperShape, 0, 10, 9, 1);
    FluidCosts mLev = DostoevskyCostModel.evaluate(paperShape, 0, 10, 1, 1);
    claims.add(lower("D-U1", "Update cost (write amplification on the engine): tiering below"
        + " lazy leveling", "W·B " + Numbers.format(mTier.update() * 32) + " < "
        + Numbers.format(mLazy.update() * 32) + " (model, T = 10, L = 6)", "tiering",
        tier.writeAmplification(), "lazy leveling", lazy.writeAmplification(), margin, order));
    claims.add(lower("D-U2", "Update cost (write amplification on the engine): lazy leveling"
        + " below leveling", "W·B " + Numbers.format(mLazy.update() * 32) + " < "
        + Numbers.format(mLev.update() * 32) + " (model, T = 10, L = 6)", "lazy leveling",
        lazy.writeAmplification(), "leveling", lev.writeAmplification(), margin, order));
    claims.add(lower("D-R1", "Zero-result lookup cost (pages read per lookup, Bloom filters on):"
        + " lazy leveling below tiering", "R " + Numbers.format(mLazy.zeroResultLookup())
        + " < " + Numbers.format(mTier.zeroResultLookup()) + " (model, T = 10)",
        "lazy leveling", lazy.pagesPerLookup(), "tiering", tier.pagesPerLookup(), margin,
        order));
    claims.add(lower("D-R2", "Zero-result lookup cost (pages read per lookup, Bloom filters on):"
        + " leveling below tiering", "R " + Numbers.format(mLev.zeroResultLookup()) + " < "
        + Numbers.format(mTier.zeroResultLookup()) + " (model, T = 10)", "leveling",
        lev.pagesPerLookup(), "tiering", tier.pagesPerLookup(), margin, order));
    Map<String, Measured> monkey = new LinkedHashMap<>();
    for (String design : DESIGNS) {
      monkey.put(design, measure(design + " monkey", design, Map.of("size-ratio",
          Integer.toString(cfg.sizeRatio())), BloomFilterConfig.Allocation.MONKEY, cfg, ctx));
    }
    claims.add(r3(cfg, mLazy.zeroResultLookup() / mLev.zeroResultLookup(),
        monkey.get("lazy-leveling"), monkey.get("leveling")));
    claims.add(lower("D-S1", "Space amplification: leveling below tiering", "amp "
        + Numbers.format(mLev.spaceAmplification()) + " < "
        + Numbers.format(mTier.spaceAmplification()) + " (Eq. 13, T = 10)", "leveling",
        lev.spaceAmplification() - 1, "tiering", tier.spaceAmplification() - 1, margin, order));
    double bound = 1.0 / cfg.sizeRatio();
    boolean same = Math.abs(lazy.spaceAmplification() - lev.spaceAmplification()) <= bound;
    claims.add(Claim.judged("D-S2", "Space amplification: lazy leveling the same as leveling"
        + " (both 1/T in the worst case)", "amp_LL = amp_lev = 1/T = " + Numbers.format(bound),
        "lazy leveling " + Numbers.format(lazy.spaceAmplification() - 1) + ", leveling "
            + Numbers.format(lev.spaceAmplification() - 1),
        "|difference| ≤ 1/T = " + Numbers.format(bound), same, same
            ? "the two differ by less than 1/T" : "the two differ by more than 1/T"));
    claims.addAll(tuner(cfg, ctx));
    List<Figure> figures = new ArrayList<>();
    List<String> names = List.of("tiering", "lazy leveling", "leveling");
    Path f = ctx.figure(name(), "engine-costs");
    Map<String, List<Double>> bars = new LinkedHashMap<>();
    bars.put("write amplification", List.of(tier.writeAmplification(),
        lazy.writeAmplification(), lev.writeAmplification()));
    bars.put("pages per zero-result lookup × 10", List.of(tier.pagesPerLookup() * 10,
        lazy.pagesPerLookup() * 10, lev.pagesPerLookup() * 10));
    bars.put("space amplification", List.of(tier.spaceAmplification(),
        lazy.spaceAmplification(), lev.spaceAmplification()));
    Charts.bars(f, "the engine at T = " + cfg.sizeRatio(), "", names, bars);
    figures.add(ctx.figureEntry(f, "Update cost, zero-result lookup cost and space"
        + " amplification of the three designs on the engine, same upserts and lookups."));
    Sweep sweep = cfg.sweepSizeRatios().isEmpty() ? null : sweep(cfg, monkey, ctx);
    if (sweep != null) {
      figures.add(sweep.figure());
    }
    List<String> notes = new ArrayList<>();
    notes.add(String.format(java.util.Locale.ROOT, "Engine runs: %,d upserts drawn uniformly"
        + " from %,d keys (so at least %.0f%% update an existing key) with %d-byte values,"
        + " %s memory components, T = %d, Bloom filters at %s false positives, durability"
        + " none, then %,d lookups of absent keys that lie inside the key range, with the page"
        + " cache off so every page read is counted. The three designs are the engine's `tiering`,"
        + " `lazy-leveling` and `leveling` policies (Dostoevsky's preemptive merging on).",
        cfg.operations(), cfg.keys(), 100.0 * (1 - cfg.keys() / (double) cfg.operations()),
        cfg.valueSize(), Numbers.format(cfg.memoryComponentBytes() / 1024.0) + " KB",
        cfg.sizeRatio(), Numbers.format(cfg.bloomFalsePositiveRate()), cfg.lookups()));
    StringBuilder table = new StringBuilder("| design | write amplification | pages per"
        + " zero-result lookup | space amplification (disk entries / live keys) | runs at"
        + " the end | merges |\n|---|---|---|---|---|---|\n");
    for (Measured r : m.values()) {
      table.append("| ").append(r.design()).append(" | ")
          .append(Numbers.format(r.writeAmplification())).append(" | ")
          .append(Numbers.format(r.pagesPerLookup())).append(" | ")
          .append(Numbers.format(r.spaceAmplification())).append(" | ").append(r.runs())
          .append(" | ").append(r.merges()).append(" |\n");
    }
    notes.add(table.toString().strip());
    StringBuilder mt = new StringBuilder("With `bloom-filter.allocation` `monkey` (Eq. 9 rates for"
        + " the same memory as uniform 1% filters, " + Numbers.format(
            MonkeyAllocation.bitsPerEntry(cfg.bloomFalsePositiveRate())) + " bits per key), same"
        + " upserts and lookups; R is the components an absent key passes into (filter and key"
        + " range), the model's R at the levels the run ended with beside it:\n\n| design |"
        + " levels | R measured, uniform | R measured, monkey | R model (Eq. 9 at these levels) |"
        + " pages per lookup, monkey | write amplification, monkey |\n"
        + "|---|---|---|---|---|---|---|\n");
    for (String design : DESIGNS) {
      Measured u = m.get(design);
      Measured k = monkey.get(design);
      mt.append("| ").append(design).append(" | ").append(k.levels()).append(" | ")
          .append(Numbers.format(u.filterPasses())).append(" | ")
          .append(Numbers.format(k.filterPasses())).append(" | ")
          .append(Numbers.format(modelR(design, cfg.sizeRatio(), k.levels(), cfg)))
          .append(" | ").append(Numbers.format(k.pagesPerLookup())).append(" | ")
          .append(Numbers.format(k.writeAmplification())).append(" |\n");
    }
    notes.add(mt.toString().strip());
    if (sweep != null) {
      notes.add(sweep.table().strip());
    }
    notes.add("The paper's values are its cost model's (docs/papers/dostoevsky.md#derived-values"
        + " at N = 2^33, B = 32, P = 512,"
        + " 10 bits per entry, T = 10): its experiments report these orderings in figures only."
        + " Our lookup costs count every page a lookup reads (a B+-tree descent per false"
        + " positive), so they are the model's R times the tree depth; the orderings compare.");
    return new PaperResult(claims, figures, notes);
  }

  private static Claim lower(String id, String text, String paper, String lowName, double low,
      String highName, double high, double margin, String tolerance) {
    boolean ok = low < high * (1 - margin);
    return Claim.judged(id, text, paper, lowName + " " + Numbers.format(low) + ", " + highName
        + " " + Numbers.format(high), tolerance, ok, ok
            ? lowName + " is lower by " + Numbers.format(100 * (1 - low / high)) + "%"
            : lowName + " is not lower than " + highName + " by the margin");
  }

  /** D-R3 on the engine: lazy leveling's R over leveling's, both with Monkey's filters. */
  private static Claim r3(DostoevskyConfig cfg, double modelRatio, Measured lazy, Measured lev) {
    String text = "Lazy leveling's zero-result lookup cost is at most 1.33× leveling's, both with"
        + " Eq. 9's filters (`bloom-filter.allocation` `monkey`); R measured as the components an"
        + " absent key passes into (Bloom filter and key range), the model's unit";
    String paper = "R_LL / R_lev = (T−1)^(1/T) = " + Numbers.format(modelRatio) + " at T = "
        + cfg.sizeRatio() + " (L → ∞)";
    if (!(lev.filterPasses() > 0)) {
      return Claim.notComparable("D-R3", text, paper, "leveling's filters let no absent key"
          + " through in " + cfg.lookups() + " lookups, so the ratio is undefined; more lookups"
          + " are needed");
    }
    double ratio = lazy.filterPasses() / lev.filterPasses();
    boolean ok = ratio <= 1.33;
    return Claim.judged("D-R3", text, paper, "lazy leveling " + Numbers.format(
        lazy.filterPasses()) + ", leveling " + Numbers.format(lev.filterPasses()) + ": ratio "
        + Numbers.format(ratio) + " (model at the runs' " + lazy.levels() + " and " + lev.levels()
        + " levels: " + Numbers.format(modelR("lazy-leveling", cfg.sizeRatio(), lazy.levels(),
            cfg) / modelR("leveling", cfg.sizeRatio(), lev.levels(), cfg)) + ")",
        "ratio ≤ 1.33", ok, ok ? "lazy leveling reads at most 1.33× leveling's runs"
            : "lazy leveling reads more than 1.33× leveling's runs");
  }

  /** Eq. 15's R for Eq. 9's rates at {@code levels} levels (finite L). */
  private static double modelR(String design, int t, int levels, DostoevskyConfig cfg) {
    LevelShape shape = switch (design) {
      case "tiering" -> new LevelShape(t, t - 1, t - 1);
      case "lazy-leveling" -> new LevelShape(t, t - 1, 1);
      default -> new LevelShape(t, 1, 1);
    };
    return MonkeyAllocation.zeroResultLookupCost(shape, MonkeyAllocation.falsePositiveRates(shape,
        Math.max(1, levels), MonkeyAllocation.bitsPerEntry(cfg.bloomFalsePositiveRate())));
  }

  /**
   * Zero-result lookup cost (runs read) and write amplification of the three designs across T,
   * Monkey's filters, on the engine: Figs. 7 and 11 in shape. At the main T the runs already made
   * are reused.
   */
  private Sweep sweep(DostoevskyConfig cfg, Map<String, Measured> atSizeRatio,
      ReproductionContext ctx) throws Exception {
    List<Charts.Series> lookups = new ArrayList<>();
    List<Charts.Series> updates = new ArrayList<>();
    StringBuilder table = new StringBuilder();
    for (String design : DESIGNS) {
      List<Double> xs = new ArrayList<>();
      List<Double> r = new ArrayList<>();
      List<Double> w = new ArrayList<>();
      for (int t : cfg.sweepSizeRatios()) {
        Measured x = t == cfg.sizeRatio() ? atSizeRatio.get(design)
            : measure(design + " monkey T=" + t, design, Map.of("size-ratio",
                Integer.toString(t)), BloomFilterConfig.Allocation.MONKEY, cfg, ctx);
        xs.add((double) t);
        r.add(x.filterPasses());
        w.add(x.writeAmplification());
        table.append("| ").append(design).append(" | ").append(t).append(" | ")
            .append(x.levels()).append(" | ").append(Numbers.format(x.filterPasses()))
            .append(" | ").append(Numbers.format(x.pagesPerLookup())).append(" | ")
            .append(Numbers.format(x.writeAmplification())).append(" |\n");
      }
      lookups.add(new Charts.Series(design, xs, r));
      updates.add(new Charts.Series(design, xs, w));
    }
    String text = "Across T with Monkey's filters (Figs. 7 and 11 in shape; same upserts and"
        + " lookups):\n\n| design | T | levels | R (runs read per zero-result lookup) | pages per"
        + " lookup | write amplification |\n|---|---|---|---|---|---|\n" + table;
    Path f = ctx.figure(name(), "size-ratio-sweep");
    Charts.xy(f, "zero-result lookups across T, Monkey filters", "size ratio T",
        "runs read per zero-result lookup", lookups, false, false);
    Path g = ctx.figure(name(), "size-ratio-sweep-updates");
    Charts.xy(g, "write amplification across T", "size ratio T", "write amplification", updates,
        false, false);
    return new Sweep(ctx.figureEntry(f, "Runs read per zero-result lookup of the three designs"
        + " across T, Monkey filters, on the engine (write amplification in " + g.getFileName()
        + ")."), text);
  }

  private List<Claim> tuner(DostoevskyConfig cfg, ReproductionContext ctx) throws Exception {
    DostoevskyConfig.Tuner t = cfg.tuner();
    LsmShape shape = new LsmShape(t.entries(), (double) t.blockSize() / t.entrySize(),
        (double) t.bufferBytes() / t.blockSize(), t.bitsPerEntry(), 1, 1);
    FluidCosts up = DostoevskyTuner.rank(shape, new Workload(t.updateHeavy().updates(),
        t.updateHeavy().zeroResultLookups(), 0, 0, 0), Double.POSITIVE_INFINITY,
        t.maxSizeRatio()).get(0).costs();
    FluidCosts look = DostoevskyTuner.rank(shape, new Workload(t.lookupHeavy().updates(),
        t.lookupHeavy().zeroResultLookups(), 0, 0, 0), Double.POSITIVE_INFINITY,
        t.maxSizeRatio()).get(0).costs();
    String mixUp = mix(t.updateHeavy());
    String mixLook = mix(t.lookupHeavy());
    List<Claim> out = new ArrayList<>();
    boolean tiering = up.k() > 1 && up.z() > 1;
    boolean leveling = look.k() == 1 && look.z() == 1;
    if (!cfg.tunerOnEngine()) {
      out.add(Claim.judged("D-T1", "The tuner picks a tiering-like design (several runs at every"
          + " level: K > 1 and Z > 1) for an update-dominated workload (" + mixUp + ")",
          "tiering", design(up), "K > 1 and Z > 1", tiering, tiering
              ? "the pick keeps several runs per level" : "the pick has a single-run level"));
      out.add(Claim.judged("D-T2", "The tuner picks a leveling-like design (K = 1 and Z = 1) for"
          + " a lookup-dominated workload (" + mixLook + ")", "leveling", design(look),
          "K = 1 and Z = 1", leveling, leveling ? "the pick is leveling"
              : "the pick keeps " + look.k() + " runs at the smaller levels"));
      boolean apart = look.z() < up.z() && look.zeroResultLookup() < up.zeroResultLookup()
          && look.update() > up.update();
      out.add(Claim.judged("D-T3", "The lookup-dominated pick trades update cost for lookup cost"
          + " against the update-dominated pick (model)", "leveling vs tiering", "Z " + look.z()
          + " vs " + up.z(), "all three strict", apart, apart
              ? "the two picks lie at opposite ends of the trade-off"
              : "the two picks do not trade update cost for lookup cost"));
      return out;
    }
    double entriesPerPage = (double) cfg.pageSize() / (12 + cfg.valueSize());
    Measured upPick = measure("update pick " + design(up), "fluid", fluid(up),
        BloomFilterConfig.Allocation.MONKEY, cfg, ctx);
    Measured upLev = measure("leveling T=" + up.sizeRatio(), "leveling", Map.of("size-ratio",
        Integer.toString(up.sizeRatio())), BloomFilterConfig.Allocation.MONKEY, cfg, ctx);
    Measured lookPick = measure("lookup pick " + design(look), "fluid", fluid(look),
        BloomFilterConfig.Allocation.MONKEY, cfg, ctx);
    Measured lookTier = measure("tiering T=" + look.sizeRatio(), "tiering", Map.of("size-ratio",
        Integer.toString(look.sizeRatio())), BloomFilterConfig.Allocation.MONKEY, cfg, ctx);
    double c1 = upPick.cost(t.updateHeavy(), entriesPerPage);
    double c1lev = upLev.cost(t.updateHeavy(), entriesPerPage);
    boolean t1 = tiering && c1 <= c1lev;
    out.add(Claim.judged("D-T1", "The tuner picks a tiering-like design (K > 1 and Z > 1) for an"
        + " update-dominated workload (" + mixUp + "), and on the engine the pick costs that"
        + " workload no more than leveling at the same T (cost w·WA/B + r·R, B = "
        + Numbers.format(entriesPerPage) + " entries per page, R = runs read per zero-result"
        + " lookup, Monkey filters)", "tiering", design(up) + "; engine cost " + Numbers.format(c1)
        + " (WA " + Numbers.format(upPick.writeAmplification()) + ", R " + Numbers.format(
            upPick.filterPasses()) + ") vs leveling T = " + up.sizeRatio() + " " + Numbers.format(
            c1lev) + " (WA " + Numbers.format(upLev.writeAmplification()) + ", R "
        + Numbers.format(upLev.filterPasses()) + ")", "K > 1, Z > 1 and cost ≤ leveling's", t1,
        !tiering ? "the pick has a single-run level" : t1 ? "the pick is tiering-like and"
            + " cheaper than leveling for its workload on the engine"
            : "leveling costs the update-dominated workload less on the engine"));
    double c2 = lookPick.cost(t.lookupHeavy(), entriesPerPage);
    double c2tier = lookTier.cost(t.lookupHeavy(), entriesPerPage);
    boolean cheaper = c2 <= c2tier;
    out.add(Claim.judged("D-T2", "The tuner picks a leveling-like design (K = 1 and Z = 1) for a"
        + " lookup-dominated workload (" + mixLook + ", the end of Fig. 10A's sweep), and on the"
        + " engine the pick costs that workload no more than tiering at the same T", "leveling",
        design(look) + "; engine cost " + Numbers.format(c2) + " (WA " + Numbers.format(
            lookPick.writeAmplification()) + ", R " + Numbers.format(lookPick.filterPasses())
        + ") vs tiering T = " + look.sizeRatio() + " " + Numbers.format(c2tier),
        "K = 1, Z = 1 and cost ≤ tiering's", leveling && cheaper, !leveling
            ? "the pick keeps " + look.k() + " runs at the smaller levels and " + look.z()
                + " at the largest: the model prefers lazy leveling's cheaper updates for a"
                + " zero-result lookup cost within " + Numbers.format(look.zeroResultLookup()
                / DostoevskyCostModel.evaluate(shape, 0, look.sizeRatio(), 1, 1)
                .zeroResultLookup()) + "× leveling's" + (cheaper ? " (on the engine it is"
                + " cheaper than tiering)" : "")
            : cheaper ? "the pick is leveling and cheaper than tiering on the engine"
                : "tiering costs the lookup-dominated workload less on the engine"));
    double margin = cfg.orderingMargin();
    boolean apart = lookPick.filterPasses() < upPick.filterPasses() * (1 - margin)
        && lookPick.writeAmplification() > upPick.writeAmplification() * (1 + margin);
    out.add(Claim.judged("D-T3", "The lookup-dominated pick trades update cost for lookup cost"
        + " against the update-dominated pick, measured on the engine: fewer runs read per"
        + " zero-result lookup, higher write amplification", "leveling vs tiering",
        "R " + Numbers.format(lookPick.filterPasses()) + " vs " + Numbers.format(
            upPick.filterPasses()) + ", WA " + Numbers.format(lookPick.writeAmplification())
            + " vs " + Numbers.format(upPick.writeAmplification()) + " (model: R "
            + Numbers.format(look.zeroResultLookup()) + " vs " + Numbers.format(
            up.zeroResultLookup()) + ", W " + Numbers.format(look.update()) + " vs "
            + Numbers.format(up.update()) + ")", "both by at least " + Numbers.format(
                margin * 100) + "%", apart, apart
            ? "the two picks lie at opposite ends of the trade-off on the engine"
            : "on the engine the two picks do not trade update cost for lookup cost"));
    return out;
  }

  private static Map<String, String> fluid(FluidCosts c) {
    return Map.of("size-ratio", Integer.toString(c.sizeRatio()), "K", Integer.toString(c.k()),
        "Z", Integer.toString(c.z()));
  }

  private static String mix(DostoevskyConfig.Mix m) {
    double s = m.updates() + m.zeroResultLookups();
    return Numbers.format(100 * m.updates() / s) + "% updates, "
        + Numbers.format(100 * m.zeroResultLookups() / s) + "% zero-result lookups";
  }

  private static String design(FluidCosts c) {
    return c.designName() + " (T = " + c.sizeRatio() + ", K = " + c.k() + ", Z = " + c.z()
        + ")";
  }

  private static Measured measure(String design, DostoevskyConfig cfg, ReproductionContext ctx)
      throws Exception {
    return measure(design, design, Map.of("size-ratio", Integer.toString(cfg.sizeRatio())),
        BloomFilterConfig.Allocation.UNIFORM, cfg, ctx);
  }

  /**
   * Loads a store with {@code policy} and {@code allocation}, then looks up absent keys.
   *
   * @param label how reports name the run
   */
  private static Measured measure(String label, String policy, Map<String, String> params,
      BloomFilterConfig.Allocation allocation, DostoevskyConfig cfg, ReproductionContext ctx)
      throws Exception {
    Path dir = ctx.scratch("dostoevsky-" + label.replace(' ', '-').replace(',', '-')
        .replace('=', '-'));
    StoreConfig store = new StoreConfig(new NamedPlugin(policy, params), null,
        MemoryComponentConfig.of(cfg.memoryComponentBytes(), 2),
        IoConfig.of(0, 1 << 20, cfg.pageSize()), PageCacheConfig.of(0),
        new BloomFilterConfig(cfg.bloomFalsePositiveRate(), allocation), null, null)
        .withDurability(Durability.NONE);
    Random rnd = new Random(cfg.seed());
    BitSet live = new BitSet((int) cfg.keys());
    byte[] value = new byte[cfg.valueSize()];
    StoreStats st;
    long pages;
    List<RunInfo> runs;
    try (LsmStore s = LsmStore.open(dir, store)) {
      for (long i = 0; i < cfg.operations(); i++) {
        int k = rnd.nextInt((int) cfg.keys());
        rnd.nextBytes(value);
        s.put(key(2L * k), value);
        live.set(k);
      }
      s.flush();
      s.awaitMerges();
      st = s.stats();
      long before = st.pageCacheMisses();
      Random lookups = new Random(cfg.seed() + 1);
      for (long i = 0; i < cfg.lookups(); i++) {
        long absent = 2L * lookups.nextInt((int) cfg.keys()) + 1;
        if (s.get(key(absent)).isPresent()) {
          throw new IllegalStateException("key " + absent + " was never written but was found");
        }
      }
      pages = s.stats().pageCacheMisses() - before;
      runs = s.runs();
    }
    double passes = filterPasses(dir, runs, cfg);
    int levels = 0;
    for (RunInfo r : runs) {
      levels = Math.max(levels, Math.max(1, r.level()));
    }
    ctx.log(String.format(java.util.Locale.ROOT, "dostoevsky: %s (%s %s, %s filters): write"
        + " amplification %.3f, pages per zero-result lookup %.4f, runs read %.4f, %d runs,"
        + " %d levels", label, policy, params, allocation.configName(), st.writeAmplification(),
        (double) pages / cfg.lookups(), passes, runs.size(), levels));
    return new Measured(label, st.writeAmplification(), (double) pages / cfg.lookups(),
        (double) st.diskEntries() / live.cardinality(), runs.size(), st.merges(), passes, levels);
  }

  /**
   * The same absent keys as the lookups, run past the closed store's own components as its read
   * path does (Bloom filter, then key range, one component per run): how many components per
   * lookup a key passes into.
   */
  private static double filterPasses(Path dir, List<RunInfo> runs, DostoevskyConfig cfg) {
    List<List<DiskComponent>> opened = new ArrayList<>();
    try {
      for (RunInfo r : runs) {
        List<DiskComponent> cs = new ArrayList<>();
        opened.add(cs);
        for (ComponentInfo c : r.components()) {
          cs.add(DiskComponent.open(dir.resolve(c.name()),
              Long.parseLong(c.name().substring(0, 12)), new PageCache(0)));
        }
      }
      Random lookups = new Random(cfg.seed() + 1);
      long passes = 0;
      for (long i = 0; i < cfg.lookups(); i++) {
        byte[] k = key(2L * lookups.nextInt((int) cfg.keys()) + 1);
        long h = KeyHash.hash64(k);
        for (List<DiskComponent> run : opened) {
          for (DiskComponent c : run) {
            if (Arrays.compareUnsigned(k, c.meta().minKey()) >= 0
                && Arrays.compareUnsigned(k, c.meta().maxKey()) <= 0) {
              passes += c.bloomFilter().mightContain(h) ? 1 : 0;
              break;
            }
          }
        }
      }
      return (double) passes / cfg.lookups();
    } finally {
      opened.forEach(run -> run.forEach(DiskComponent::release));
    }
  }

  private static byte[] key(long k) {
    return String.format("k%011d", k).getBytes(StandardCharsets.UTF_8);
  }
}
