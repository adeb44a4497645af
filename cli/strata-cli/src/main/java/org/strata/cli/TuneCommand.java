package org.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.strata.lsm.config.Quantities;
import org.strata.policy.tuning.DostoevskyCostModel;
import org.strata.policy.tuning.DostoevskyTuner;
import org.strata.policy.tuning.FluidCosts;
import org.strata.policy.tuning.LsmShape;
import org.strata.policy.tuning.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata tune}: evaluates Dostoevsky's cost model (Eqs. 1 and 9–14, 23–28, with the optimal
 * Bloom filter allocation) for a workload and data size and prints the best (T, K, Z) under an
 * optional space-amplification bound, with the cost terms of the leading candidates.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
    description = "Find the Fluid LSM-tree design (T, K, Z) with the lowest mean I/O cost per "
        + "operation (Dostoevsky Eq. 14) for a workload, optionally under a space-amplification "
        + "bound; or, with --design, print the costs of one design.")
final class TuneCommand implements Callable<Integer> {
  @Option(names = "--entries", required = true, paramLabel = "N", description = "Total entries.",
      converter = QuantityConverters.DoubleCount.class)
  double entries;

  @Option(names = "--entry-size", defaultValue = "1KB", paramLabel = "BYTES",
      description = "Entry size.")
  String entrySize;

  @Option(names = "--block-size", defaultValue = "4KB", paramLabel = "BYTES",
      description = "Storage block size.")
  String blockSize;

  @Option(names = "--buffer", defaultValue = "2MB", paramLabel = "BYTES",
      description = "Write buffer (memory component) size.")
  String buffer;

  @Option(names = "--bits-per-entry", defaultValue = "10", paramLabel = "M/N",
      description = "Bloom filter memory per entry.")
  double bitsPerEntry;

  @Option(names = "--mu", defaultValue = "1", paramLabel = "MU",
      description = "How much faster the storage reads sequentially than randomly, per page "
          + "(Dostoevsky's mu; default ${DEFAULT-VALUE}).")
  double mu;

  @Option(names = "--phi", defaultValue = "1", paramLabel = "PHI",
      description = "Cost of a page write relative to a page read (Dostoevsky's phi; default "
          + "${DEFAULT-VALUE}).")
  double phi;

  @Option(names = "--updates", defaultValue = "0.5", paramLabel = "w",
      description = "Fraction of operations that are updates (inserts, updates, deletes; "
          + "default ${DEFAULT-VALUE}). The four fractions need not sum to 1: they are weights.")
  double updates;

  @Option(names = "--zero-result-lookups", defaultValue = "0.5", paramLabel = "r",
      description = "Fraction of operations that are point lookups of absent keys (default "
          + "${DEFAULT-VALUE}).")
  double zeroLookups;

  @Option(names = "--existing-lookups", defaultValue = "0", paramLabel = "v",
      description = "Fraction of operations that are point lookups of existing keys (default "
          + "${DEFAULT-VALUE}).")
  double existingLookups;

  @Option(names = "--range-lookups", defaultValue = "0", paramLabel = "q",
      description = "Fraction of operations that are range lookups of --selectivity (default "
          + "${DEFAULT-VALUE}).")
  double rangeLookups;

  @Option(names = "--selectivity", defaultValue = "1e-7", paramLabel = "s",
      description = "Range selectivity as a fraction of all entries.")
  double selectivity;

  @Option(names = "--max-space-amp", paramLabel = "A", defaultValue = "1",
      description = "Skip designs whose space amplification Z - 1 + 1/T (the obsolete data as a "
          + "fraction of the live data) exceeds A; 'none' for no bound (default ${DEFAULT-VALUE}:"
          + " at most twice the live data on disk).")
  String maxSpaceAmp;

  @Option(names = "--max-size-ratio", defaultValue = "64", paramLabel = "T",
      description = "Largest size ratio tried.")
  int maxSizeRatio;

  @Option(names = "--design", paramLabel = "T,K,Z", split = ",",
      description = "Evaluate this one design instead of searching.")
  int[] design;

  @Option(names = "--top", defaultValue = "5", paramLabel = "N",
      description = "Candidates to print.")
  int top;

  @Option(names = "--json", description = "Print one JSON object (with the best design's fluid "
      + "merge-policy configuration under \"config\").")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    LsmShape shape;
    Workload workload;
    try {
      long entry = Quantities.bytes("--entry-size", entrySize);
      long block = Quantities.bytes("--block-size", blockSize);
      long buf = Quantities.bytes("--buffer", buffer);
      if (entry < 1 || block < entry || buf < block) {
        throw new IllegalArgumentException("need 1 <= --entry-size <= --block-size <= --buffer");
      }
      shape = new LsmShape(entries, (double) block / entry, (double) buf / block, bitsPerEntry,
          mu, phi);
      workload = new Workload(updates, zeroLookups, existingLookups, rangeLookups, selectivity);
      if (shape.sizeRatioLimit() < 2) {
        throw new IllegalArgumentException("--entries must exceed two buffers' worth of entries");
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    double bound;
    if (maxSpaceAmp.equalsIgnoreCase("none")) {
      bound = Double.POSITIVE_INFINITY;
    } else {
      try {
        bound = Double.parseDouble(maxSpaceAmp);
      } catch (NumberFormatException e) {
        bound = -1;
      }
      if (!(bound > 0) || Double.isInfinite(bound)) {
        throw new ParameterException(spec.commandLine(), "--max-space-amp: '" + maxSpaceAmp
            + "' is not allowed; allowed: a positive number such as 0.5 or 1, or none");
      }
    }
    if (top < 1) {
      throw new ParameterException(spec.commandLine(), "--top must be at least 1");
    }
    List<DostoevskyTuner.Candidate> ranked;
    if (design != null) {
      if (design.length != 3) {
        throw new ParameterException(spec.commandLine(), "--design takes T,K,Z");
      }
      FluidCosts c;
      try {
        c = DostoevskyCostModel.evaluate(shape, selectivity, design[0], design[1], design[2]);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--design: " + e.getMessage());
      }
      ranked = List.of(new DostoevskyTuner.Candidate(c, c.cost(workload)));
    } else {
      ranked = DostoevskyTuner.rank(shape, workload,
          bound, maxSizeRatio);
      if (ranked.isEmpty()) {
        spec.commandLine().getErr().println("no design satisfies --max-space-amp " + maxSpaceAmp
            + "; raise it, or give --max-space-amp none");
        return 1;
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    List<DostoevskyTuner.Candidate> shown = ranked.subList(0, Math.min(top, ranked.size()));
    if (json) {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      o.set("best", node(shown.get(0)));
      o.put("maxSpaceAmplification", Double.isInfinite(bound) ? null : bound);
      o.set("config", fluidConfig(shown.get(0).costs()));
      ArrayNode cs = o.putArray("candidates");
      shown.forEach(c -> cs.add(node(c)));
      out.println(StatsJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(o));
    } else {
      DostoevskyTuner.Candidate b = shown.get(0);
      out.printf("best: T=%d K=%d Z=%d (%s), %d levels, cost %.5f I/O per operation%n",
          b.costs().sizeRatio(), b.costs().k(), b.costs().z(), b.costs().designName(),
          b.costs().levels(), b.cost());
      out.printf("%4s %4s %4s %3s %3s %10s %10s %10s %12s %8s %12s  %s%n", "T", "K", "Z", "L",
          "Y", "R", "V", "Q", "W", "amp", "cost", "design");
      for (DostoevskyTuner.Candidate c : shown) {
        FluidCosts f = c.costs();
        out.printf("%4d %4d %4d %3d %3d %10.5f %10.5f %10.3f %12.6f %8.3f %12.6f  %s%n",
            f.sizeRatio(), f.k(), f.z(), f.levels(), f.unfilteredLevels(), f.zeroResultLookup(),
            f.existingLookup(), f.rangeLookup(), f.update(), f.spaceAmplification(), c.cost(),
            f.designName());
      }
      out.print("bloom filter bits per entry by level (best):");
      for (double bits : b.costs().bitsPerEntry()) {
        out.printf(" %.2f", bits);
      }
      out.println();
      out.println("merge policy to paste into a store or dataset configuration"
          + " (docs/configuration.md):");
      out.println(StatsJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(
          fluidConfig(b.costs())));
    }
    out.flush();
    return 0;
  }

  /** {@code {"merge-policy": {"name": "fluid", "parameters": {...}}}} for a design. */
  static ObjectNode fluidConfig(FluidCosts f) {
    ObjectNode o = StatsJson.MAPPER.createObjectNode();
    ObjectNode mp = o.putObject("merge-policy");
    mp.put("name", "fluid");
    ObjectNode p = mp.putObject("parameters");
    p.put("size-ratio", Integer.toString(f.sizeRatio()));
    p.put("K", Integer.toString(f.k()));
    p.put("Z", Integer.toString(f.z()));
    return o;
  }

  private static ObjectNode node(DostoevskyTuner.Candidate c) {
    FluidCosts f = c.costs();
    ObjectNode n = StatsJson.MAPPER.createObjectNode();
    n.put("T", f.sizeRatio());
    n.put("K", f.k());
    n.put("Z", f.z());
    n.put("design", f.designName());
    n.put("levels", f.levels());
    n.put("unfilteredLevels", f.unfilteredLevels());
    n.put("zeroResultLookup", f.zeroResultLookup());
    n.put("existingLookup", f.existingLookup());
    n.put("rangeLookup", f.rangeLookup());
    n.put("update", f.update());
    n.put("spaceAmplification", f.spaceAmplification());
    n.put("cost", c.cost());
    ArrayNode p = n.putArray("falsePositiveRates");
    for (double v : f.falsePositiveRates()) {
      p.add(v);
    }
    ArrayNode b = n.putArray("bitsPerEntry");
    for (double v : f.bitsPerEntry()) {
      b.add(v);
    }
    return n;
  }
}
