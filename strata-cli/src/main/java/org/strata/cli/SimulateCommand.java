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
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.NamedPlugin;
import org.strata.policy.sim.MergeSimulator;
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
  @Option(names = "--policy", required = true, paramLabel = "NAME", description = "Policy name.")
  String policy;

  @Option(names = "--param", paramLabel = "KEY=VALUE",
      description = "A policy parameter; repeat for several.")
  Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--flushes", required = true, paramLabel = "N", description = "Flushes.")
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
    MergeSimulator sim = MergeSimulator.of(new NamedPlugin(policy, params));
    List<MergeSimulator.Checkpoint> results = new ArrayList<>();
    long start = System.nanoTime();
    for (long t = 1; t <= flushes; t++) {
      sim.flush(sizes[(int) ((t - 1) % sizes.length)]);
      if (points.contains(t)) {
        results.add(sim.checkpoint());
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      o.put("policy", policy);
      ObjectNode ps = o.putObject("parameters");
      params.forEach(ps::put);
      o.put("seconds", seconds);
      ArrayNode cs = o.putArray("checkpoints");
      for (MergeSimulator.Checkpoint c : results) {
        ObjectNode n = cs.addObject();
        n.put("flushes", c.flushes());
        n.put("writeAmplification", c.writeAmplification());
        n.put("modelWriteAmplification", c.modelWriteAmplification());
        n.put("averageComponentCount", c.averageComponentCount());
        n.put("components", c.components());
      }
      out.println(StatsJson.MAPPER.writeValueAsString(o));
    } else {
      out.printf("%12s %20s %24s %22s %11s%n", "flushes", "writeAmplification",
          "modelWriteAmplification", "averageComponentCount", "components");
      for (MergeSimulator.Checkpoint c : results) {
        out.printf("%12d %20.4f %24.4f %22.4f %11d%n", c.flushes(), c.writeAmplification(),
            c.modelWriteAmplification(), c.averageComponentCount(), c.components());
      }
      out.printf("(%s, %d flushes simulated in %.2f s)%n", policy, flushes, seconds);
    }
    out.flush();
    return 0;
  }

  private long[] sizes() throws IOException {
    if (flushSizes == null) {
      long s = ByteSize.parse("--flush-size", flushSize);
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
        v = ByteSize.parse("--flush-sizes line " + lineNo, l);
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
