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
 * Every paper's reproduction end to end at the quick scale, as a user runs it; only in the bench
 * profile ({@code ./mvnw -B -ntp -Pbench verify}), because it takes minutes. It checks the report's
 * schema and prints how long each paper took; it asserts no verdict (those are the findings).
 */
class ReproduceQuickIT {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"mao", "dostoevsky", "luo-carey"})
  void quickScale(String paper) throws Exception {
    Path out = tmp.resolve(paper);
    CliTest.Result r = CliTest.run("reproduce", paper, "--scale", "quick", "--out",
        out.toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode v = new ObjectMapper().readTree(Files.readString(out.resolve("verdicts.json")));
    ReproduceCommandTest.checkSchema(v, paper);
    assertThat(v.get("scale").asText()).isEqualTo("quick");
    System.out.printf("reproduce %s --scale quick: %.0f s, %s%n", paper,
        v.get("seconds").asDouble(), v.get("summary"));
  }
}
