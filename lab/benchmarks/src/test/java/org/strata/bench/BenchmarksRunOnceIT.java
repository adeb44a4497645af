package org.strata.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Runs every benchmark of the shaded {@code benchmarks.jar} once, as a user would start it, so no
 * benchmark can rot: one short iteration of each parameter combination, no warm-up, in one JVM
 * ({@code -f 0}), failing on the first error. It checks that the jar lists the benchmarks, that
 * JMH exits cleanly, that every listed benchmark produced one result per parameter combination
 * with a positive score, and that the benchmarks deleted every file they made (JMH's own lock file
 * aside). The run's temp directory is under {@code target/}, so its JMH lock is not shared with
 * other JMH runs on the machine. It asserts nothing about the scores' sizes: the figures are
 * measured by hand (docs/performance.md).
 */
class BenchmarksRunOnceIT {
  private static final Pattern PARAM = Pattern.compile("^\\s+param \"(\\w+)\" = \\{(.*)\\}$");
  /** A guard against a hung benchmark, far above the run's usual length; not a measurement. */
  private static final long HANG_GUARD_MINUTES = 15;

  private final Path jar = Path.of(System.getProperty("benchmarks.jar", "target/benchmarks.jar"));
  private final Path work =
      Path.of(System.getProperty("benchmarks.work", "target/benchmarks-once"));
  private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

  @Test
  void everyBenchmarkRunsOnceFromTheJar() throws Exception {
    assertThat(jar).as("the shaded jar (built by package)").isRegularFile();
    Path tmp = work.resolve("tmp");
    deleteRecursively(work); // what an earlier, failed run left
    Files.createDirectories(tmp);

    Map<String, Integer> expected = listWithParameterCombinations();
    assertThat(expected).as("benchmarks listed by the jar").hasSizeGreaterThanOrEqualTo(16);

    Path results = work.resolve("results.json");
    Path log = work.resolve("run.log");
    Files.deleteIfExists(results);
    int exit = run(log, "-Xmx2g", "-Djava.io.tmpdir=" + tmp.toAbsolutePath(), "-jar",
        jar.toString(), "-f", "0", "-wi", "0", "-i", "1", "-r", "200ms", "-foe", "true",
        "-rf", "json", "-rff", results.toString());
    if (exit != 0) {
      fail("JMH exited with " + exit + "; the end of " + log + ":\n" + tail(log, 60));
    }

    Map<String, Integer> seen = new LinkedHashMap<>();
    for (JsonNode r : new ObjectMapper().readTree(results.toFile())) {
      String name = r.get("benchmark").asText();
      double score = r.get("primaryMetric").get("score").asDouble();
      assertThat(score).as("score of " + name + " " + r.get("params")).isPositive()
          .isLessThan(Double.POSITIVE_INFINITY);
      seen.merge(name, 1, Integer::sum);
    }
    assertThat(seen).as("results per benchmark (one per parameter combination)")
        .isEqualTo(expected);
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(f -> f.getFileName().toString()).filter(f -> !f.equals("jmh.lock")))
          .as("files the benchmarks left in their temp directory").isEmpty();
    }
  }

  /** Runs {@code -lp} and returns each benchmark with its number of parameter combinations. */
  private Map<String, Integer> listWithParameterCombinations() throws Exception {
    Path out = work.resolve("list.txt");
    int exit = run(out, "-jar", jar.toString(), "-lp");
    assertThat(exit).as("exit status of -lp; output:\n" + tail(out, 40)).isZero();
    Map<String, Integer> combos = new LinkedHashMap<>();
    String current = null;
    for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
      Matcher m = PARAM.matcher(line);
      if (line.startsWith("org.strata.bench.")) {
        current = line.trim();
        combos.put(current, 1);
      } else if (m.matches() && current != null) {
        combos.merge(current, m.group(2).split(",").length, (a, b) -> a * b);
      }
    }
    return combos;
  }

  private int run(Path output, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(java.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(output.toFile()).start();
    if (!p.waitFor(HANG_GUARD_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      fail("JMH did not finish within " + HANG_GUARD_MINUTES + " minutes; the end of " + output
          + ":\n" + tail(output, 60));
    }
    return p.exitValue();
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
          Files.delete(p);
        }
      }
    }
  }

  private static String tail(Path file, int lines) throws IOException {
    List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
