package org.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.strata.lsm.config.Quantities;
import org.strata.lsm.config.NamedPlugin;
import org.strata.sim.merge.MergeSimulator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata simulate}: runs a merge policy on Mao et al.'s model (instantaneous merges, output
 * size = sum of inputs) and prints write amplification and component counts at checkpoints.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = "Run a merge policy on the simulated stack of Mao et al. and print, at each "
        + "checkpoint, flushes, writeAmplification (engine: flush + merge bytes over flushed "
        + "bytes), modelWriteAmplification (Problem 1), averageComponentCount and components.")
final class SimulateCommand implements Callable<Integer> {
  @Option(names = "--policy", required = true, paramLabel = "NAME[,NAME...]", split = ",",
      description = "Policy name; several, comma-separated, are compared on the same flushes in"
          + " one table.")
  List<String> policies = new ArrayList<>();

  @Option(names = "--param", paramLabel = "[POLICY:]KEY=VALUE",
      description = "A policy parameter; repeat for several. With several policies, "
          + "POLICY:KEY=VALUE sets it for one of them, KEY=VALUE for all.")
  Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--chart", paramLabel = "FILE.png",
      description = "Also draw write amplification and average component count against flushes"
          + " for every policy (100 points).")
  Path chart;

  @Option(names = "--flushes", required = true, paramLabel = "N", description = "Flushes.",
      converter = QuantityConverters.Count.class)
  long flushes;

  @Option(names = "--flush-size", paramLabel = "BYTES", defaultValue = "1",
      description = "Size of every flush (a number or a size such as 4MB; default 1).")
  String flushSize;

  @Option(names = "--flush-sizes", paramLabel = "FILE",
      description = "One flush size per line, repeated when shorter than N.")
  Path flushSizes;

  @Option(names = "--checkpoints", paramLabel = "n1,n2,...", split = ",",
      description = "Flush counts to report at (default: N).")
  List<Long> checkpoints = new ArrayList<>();

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (flushes < 1) {
      throw new ParameterException(spec.commandLine(), "--flushes must be 1 or more, got "
          + flushes);
    }
    long[] sizes = sizes();
    TreeSet<Long> points = new TreeSet<>(checkpoints);
    if (points.isEmpty()) {
      points.add(flushes);
    }
    for (long p : points) {
      if (p < 1 || p > flushes) {
        throw new ParameterException(spec.commandLine(), "--checkpoints must lie in 1.."
            + flushes + ", got " + p);
      }
    }
    Map<String, Map<String, String>> byPolicy;
    try {
      byPolicy = PolicyParameters.byPolicy(policies, params);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    TreeSet<Long> sampled = new TreeSet<>(points);
    if (chart != null) {
      for (int i = 1; i <= 100; i++) {
        sampled.add(Math.max(1, flushes * i / 100));
      }
    }
    List<Simulated> runs = new ArrayList<>();
    for (String policy : policies) {
      MergeSimulator sim = MergeSimulator.of(new NamedPlugin(policy, byPolicy.get(policy)));
      List<MergeSimulator.Checkpoint> results = new ArrayList<>();
      List<MergeSimulator.Checkpoint> curve = new ArrayList<>();
      long start = System.nanoTime();
      for (long t = 1; t <= flushes; t++) {
        sim.flush(sizes[(int) ((t - 1) % sizes.length)]);
        if (sampled.contains(t)) {
          MergeSimulator.Checkpoint c = sim.checkpoint();
          curve.add(c);
          if (points.contains(t)) {
            results.add(c);
          }
        }
      }
      runs.add(new Simulated(policy, byPolicy.get(policy), results, curve,
          (System.nanoTime() - start) / 1e9));
    }
    if (chart != null) {
      SimulateChart.write(chart, runs.stream().map(r -> new SimulateChart.Curve(r.policy(),
          r.curve())).toList(), flushes);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o;
      if (runs.size() == 1) {
        o = json(runs.get(0));
      } else {
        o = StatsJson.MAPPER.createObjectNode();
        o.put("flushes", flushes);
        ArrayNode ps = o.putArray("policies");
        runs.forEach(r -> ps.add(json(r)));
      }
      out.println(StatsJson.MAPPER.writeValueAsString(o));
    } else if (runs.size() == 1) {
      Simulated r = runs.get(0);
      out.printf("%12s %20s %24s %22s %11s%n", "flushes", "writeAmplification",
          "modelWriteAmplification", "averageComponentCount", "components");
      for (MergeSimulator.Checkpoint c : r.checkpoints()) {
        out.printf("%12d %20.4f %24.4f %22.4f %11d%n", c.flushes(), c.writeAmplification(),
            c.modelWriteAmplification(), c.averageComponentCount(), c.components());
      }
      out.printf("(%s, %d flushes simulated in %.2f s)%n", r.policy(), flushes, r.seconds());
    } else {
      int width = Math.max(6, policies.stream().mapToInt(String::length).max().orElse(6));
      out.printf("%12s  %-" + width + "s %20s %24s %22s %11s%n", "flushes", "policy",
          "writeAmplification", "modelWriteAmplification", "averageComponentCount",
          "components");
      for (int i = 0; i < runs.get(0).checkpoints().size(); i++) {
        for (Simulated r : runs) {
          MergeSimulator.Checkpoint c = r.checkpoints().get(i);
          out.printf("%12d  %-" + width + "s %20.4f %24.4f %22.4f %11d%n", c.flushes(),
              r.policy(), c.writeAmplification(), c.modelWriteAmplification(),
              c.averageComponentCount(), c.components());
        }
      }
      out.printf("(%d policies, %d flushes each, the same flush sizes)%n", runs.size(), flushes);
    }
    out.flush();
    return 0;
  }

  /** One policy's simulation: the checkpoints asked for and the curve for the chart. */
  private record Simulated(String policy, Map<String, String> parameters,
      List<MergeSimulator.Checkpoint> checkpoints, List<MergeSimulator.Checkpoint> curve,
      double seconds) {}

  private static ObjectNode json(Simulated r) {
    ObjectNode o = StatsJson.MAPPER.createObjectNode();
    o.put("policy", r.policy());
    ObjectNode ps = o.putObject("parameters");
    r.parameters().forEach(ps::put);
    o.put("seconds", r.seconds());
    ArrayNode cs = o.putArray("checkpoints");
    for (MergeSimulator.Checkpoint c : r.checkpoints()) {
      ObjectNode n = cs.addObject();
      n.put("flushes", c.flushes());
      n.put("writeAmplification", c.writeAmplification());
      n.put("modelWriteAmplification", c.modelWriteAmplification());
      n.put("averageComponentCount", c.averageComponentCount());
      n.put("components", c.components());
    }
    return o;
  }

  private long[] sizes() throws IOException {
    if (flushSizes == null) {
      long s = Quantities.bytes("--flush-size", flushSize);
      if (s < 1) {
        throw new ParameterException(spec.commandLine(), "--flush-size must be at least 1 byte");
      }
      return new long[] {s};
    }
    if (!Files.isReadable(flushSizes)) {
      throw new ParameterException(spec.commandLine(), "--flush-sizes file " + flushSizes
          + " cannot be read");
    }
    List<Long> list = new ArrayList<>();
    int lineNo = 0;
    for (String line : Files.readAllLines(flushSizes)) {
      lineNo++;
      String l = line.trim();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      long v;
      try {
        v = Quantities.bytes("--flush-sizes line " + lineNo, l);
      } catch (RuntimeException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      if (v < 1) {
        throw new ParameterException(spec.commandLine(), "--flush-sizes line " + lineNo
            + ": sizes must be at least 1, got " + l);
      }
      list.add(v);
    }
    if (list.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--flush-sizes file " + flushSizes
          + " holds no sizes");
    }
    return list.stream().mapToLong(Long::longValue).toArray();
  }
}
