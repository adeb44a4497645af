package org.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.strata.reproduce.DocsPage;
import org.strata.reproduce.PaperReproduction;
import org.strata.reproduce.PaperResult;
import org.strata.reproduce.Papers;
import org.strata.reproduce.Report;
import org.strata.reproduce.ReproductionReportWriter;
import org.strata.reproduce.ReproductionContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code strata reproduce PAPER}: runs one paper's experiments at a scale and writes a verdict for
 * every claim to {@code DIR/report.md} and {@code DIR/verdicts.json}, with the charts under {@code
 * DIR/figures}.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
    description = "Run a paper's experiments and check each of its claims: writes DIR/report.md,"
        + " DIR/verdicts.json (one row per claim: the claim, the paper's value, ours, the"
        + " tolerance, and holds | does-not-hold | not-comparable with the reason) and"
        + " DIR/figures/*.png.")
final class ReproduceCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameters(index = "0", paramLabel = "PAPER",
      description = "The paper: mao, dostoevsky, luo-carey, iam, triad (see --list).",
      arity = "0..1")
  String paper;

  @Option(names = "--scale", paramLabel = "SCALE", defaultValue = "quick",
      description = "tiny (seconds, for tests), quick (minutes) or paper (the paper's sizes).")
  String scale;

  @Option(names = "--config", paramLabel = "FILE",
      description = "A configuration to run instead of a scale's (start from --print-config).")
  Path config;

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory.")
  Path out;

  @Option(names = "--json", description = "Also print verdicts.json to standard output.")
  boolean json;

  @Option(names = "--docs", paramLabel = "FILE.md",
      description = "Also write the report to this documentation page (keeping the page's"
          + " hand-written part after its keep marker) and copy the figures next to it.")
  Path docs;

  @Option(names = "--print-config", description = "Print the scale's configuration and exit.")
  boolean printConfig;

  @Option(names = "--list", description = "List the papers and exit.")
  boolean list;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    Papers papers = Papers.load(ReproduceCommand.class.getClassLoader());
    if (list) {
      for (String n : papers.names()) {
        PaperReproduction p = papers.named(n);
        stdout.println(n + "\t" + p.title());
      }
      return 0;
    }
    if (paper == null) {
      throw new ParameterException(spec.commandLine(), "PAPER is required; the papers are "
          + String.join(", ", papers.names()));
    }
    PaperReproduction p;
    JsonNode cfg;
    String scaleName;
    try {
      p = papers.named(paper);
      if (config != null) {
        cfg = readConfig(config);
        scaleName = "custom";
      } else {
        cfg = Papers.configuration(p, scale, JSON);
        scaleName = scale;
      }
      p.validate(cfg);
    } catch (IllegalArgumentException | org.strata.lsm.InvalidConfigurationException e) {
      // An error in a --config file names it.
      String m = String.valueOf(e.getMessage());
      throw new ParameterException(spec.commandLine(), config == null
          || m.contains(config.toString()) ? m : config + ": " + m);
    }
    if (printConfig) {
      stdout.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(cfg));
      return 0;
    }
    if (out == null) {
      throw new ParameterException(spec.commandLine(), "--out DIR is required");
    }
    Files.createDirectories(out);
    PrintStream progress = json ? progressStream(spec.commandLine().getErr())
        : progressStream(stdout);
    ReproductionContext ctx = new ReproductionContext(out, scaleName, progress);
    long start = System.nanoTime();
    PaperResult result;
    try {
      result = p.run(cfg, ctx);
    } catch (org.strata.lsm.InvalidConfigurationException e) {
      throw config == null ? e : ConfigFiles.named(config.toString(), e);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    deleteScratch(out.resolve("scratch"));
    Report report = new Report(p.name(), p.title(), p.source(), scaleName, commandLine(),
        machine(), result.device(), seconds, cfg, Report.Summary.of(result.claims()),
        result.claims(), result.figures(), result.notes());
    ReproductionReportWriter writer = new ReproductionReportWriter(JSON);
    writer.write(report, out);
    if (docs != null) {
      DocsPage.write(docs, writer.markdown(report), report, out);
    }
    if (json) {
      stdout.print(writer.json(report));
    } else {
      Report.Summary s = report.summary();
      stdout.printf("%s: %d hold, %d do not hold, %d not comparable; %s, %s (%.0f s)%n",
          p.name(), s.holds(), s.doesNotHold(), s.notComparable(), out.resolve("report.md"),
          out.resolve("verdicts.json"), seconds);
    }
    stdout.flush();
    progress.flush();
    return 0;
  }

  private static PrintStream progressStream(PrintWriter stdout) {
    return new PrintStream(new java.io.OutputStream() {
      @Override
      public void write(int b) {
        stdout.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        stdout.write(new String(b, off, len, StandardCharsets.UTF_8));
      }

      @Override
      public void flush() {
        stdout.flush();
      }
    }, true, StandardCharsets.UTF_8);
  }

  private JsonNode readConfig(Path file) throws IOException {
    try {
      return JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("--config " + file + ": no such file");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("--config " + file + " is not valid JSON: "
          + e.getOriginalMessage());
    }
  }

  private String commandLine() {
    List<String> words = new ArrayList<>(List.of("bin/strata", "reproduce", paper));
    if (config != null) {
      words.add("--config");
      words.add(config.toString());
    } else {
      words.add("--scale");
      words.add(scale);
    }
    words.add("--out");
    words.add(out.toString());
    if (docs != null) {
      words.add("--docs");
      words.add(docs.toString());
    }
    return String.join(" ", words);
  }

  private static String machine() {
    Runtime rt = Runtime.getRuntime();
    long gib = Math.round(osMemory() / (double) (1L << 30));
    return rt.availableProcessors() + " cores, " + (gib > 0 ? gib + " GiB, " : "")
        + System.getProperty("os.name") + ", Java " + System.getProperty("java.version");
  }

  private static long osMemory() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getTotalMemorySize();
    }
    return 0;
  }

  private static void deleteScratch(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
