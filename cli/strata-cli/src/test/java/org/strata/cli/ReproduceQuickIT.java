package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every paper's reproduction end to end, as a user runs it; only in the bench profile ({@code
 * ./mvnw -B -ntp -Pbench verify}), because it takes minutes. It checks the report's schema and
 * prints how long each paper took; it asserts no verdict (those are the findings). The two papers
 * that run the engine on the device model, {@code triad} and {@code iam}, run at the tiny scale
 * with every kind of run (timed, paced and drained, the device sweep). {@code luo-carey} at the
 * quick scale is {@link ReproduceLuoCareyQuickIT}, in a profile of its own (its simulator runs
 * alone take five minutes, a third of this suite's budget), and {@code triad} and {@code iam}
 * do not run at the quick scale here: their quick scales take longer than this suite's budget
 * (docs/reproduce.md gives their times), and their pages in docs/reproduction/ come from those
 * runs, made by hand.
 */
class ReproduceQuickIT {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"triad", "iam"})
  void tinyScaleOfTheEnginePapers(String paper) throws Exception {
    Path out = tmp.resolve(paper);
    CliTest.Result r = CliTest.run("reproduce", paper, "--scale", "tiny", "--out",
        out.toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode v = new ObjectMapper().readTree(Files.readString(out.resolve("verdicts.json")));
    ReproduceCommandTest.checkSchema(v, paper);
    assertThat(v.get("scale").asText()).isEqualTo("tiny");
    // Both run on the device model by default (issue: bytes become time), and say so.
    assertThat(v.get("device").asText()).as("device").doesNotStartWith("none");
    assertThat(out.resolve("figures").resolve(paper + "-device-sweep.png")).exists();
    System.out.printf("reproduce %s --scale tiny: %.0f s, %s%n", paper,
        v.get("seconds").asDouble(), v.get("summary"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"mao", "dostoevsky"})
  void quickScale(String paper) throws Exception {
    Path out = tmp.resolve(paper);
    CliTest.Result r = CliTest.run("reproduce", paper, "--scale", "quick", "--out",
        out.toString(), "--json");
    check(r, out, paper, "quick");
  }

  /** The run succeeded and its verdicts.json has the schema and scale; prints its time. */
  static void check(CliTest.Result r, Path out, String paper, String scale) throws Exception {
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode v = new ObjectMapper().readTree(Files.readString(out.resolve("verdicts.json")));
    ReproduceCommandTest.checkSchema(v, paper);
    assertThat(v.get("scale").asText()).isEqualTo(scale);
    System.out.printf("reproduce %s --scale %s: %.0f s, %s%n", paper, scale,
        v.get("seconds").asDouble(), v.get("summary"));
  }
}
