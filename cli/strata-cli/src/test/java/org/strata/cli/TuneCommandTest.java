package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TuneCommandTest {
  @Test
  void evaluatesOneDesignWithTheSpecsValues() throws Exception {
    CliTest.Result r = CliTest.run("tune", "--entries", "8589934592", "--entry-size", "128",
        "--design", "10,9,1", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode b = new ObjectMapper().readTree(r.out()).get("best");
    assertThat(b.get("design").asText()).isEqualTo("lazy leveling");
    assertThat(b.get("levels").asInt()).isEqualTo(6);
    assertThat(b.get("zeroResultLookup").asDouble()).isCloseTo(0.01465, within(0.000006));
    assertThat(b.get("update").asDouble() * 32).isCloseTo(9.0, within(1e-9));
    assertThat(b.get("bitsPerEntry")).hasSize(6);
  }

  @Test
  void searchRespectsTheSpaceBoundAndRejectsBadInput() throws Exception {
    CliTest.Result r = CliTest.run("tune", "--entries", "8589934592", "--entry-size", "128",
        "--updates", "0.9", "--zero-result-lookups", "0.1", "--max-space-amp", "0.3", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    for (JsonNode c : new ObjectMapper().readTree(r.out()).get("candidates")) {
      assertThat(c.get("spaceAmplification").asDouble()).isLessThanOrEqualTo(0.3);
    }
    CliTest.Result bad = CliTest.run("tune", "--entries", "1000000", "--design", "10,12,1");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("K and Z must lie in 1..T-1");
    CliTest.Result negative = CliTest.run("tune", "--entries", "1000000", "--updates", "-1");
    assertThat(negative.code()).isEqualTo(2);
  }

  /**
   * By default the search keeps space amplification at most 1 (no more than twice the live data),
   * and its answer is a fluid configuration that a store opens as it is.
   */
  @Test
  void defaultBoundAndTheConfigToPaste(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    CliTest.Result r = CliTest.run("tune", "--entries", "1e8", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("maxSpaceAmplification").asDouble()).isEqualTo(1.0);
    for (JsonNode c : j.get("candidates")) {
      assertThat(c.get("spaceAmplification").asDouble()).isLessThanOrEqualTo(1.0);
    }
    JsonNode best = j.get("best");
    JsonNode params = j.at("/config/merge-policy/parameters");
    assertThat(j.at("/config/merge-policy/name").asText()).isEqualTo("fluid");
    assertThat(params.get("size-ratio").asText()).isEqualTo(best.get("T").asText());
    assertThat(params.get("K").asText()).isEqualTo(best.get("K").asText());
    assertThat(params.get("Z").asText()).isEqualTo(best.get("Z").asText());
    java.nio.file.Path config = tmp.resolve("fluid.json");
    java.nio.file.Files.writeString(config, j.get("config").toString());
    java.nio.file.Path store = tmp.resolve("store");
    CliTest.Result put = CliTest.run("put", "--dir", store.toString(), "--config",
        config.toString(), "k", "v");
    assertThat(put.code()).as(put.err()).isZero();
    assertThat(CliTest.run("stats", "--dir", store.toString(), "--json").out())
        .contains("\"runs\"");

    CliTest.Result text = CliTest.run("tune", "--entries", "1e8");
    assertThat(text.out()).contains("merge policy to paste").contains("\"name\" : \"fluid\"");
    JsonNode unbounded = new ObjectMapper().readTree(CliTest.run("tune", "--entries", "1e8",
        "--max-space-amp", "none", "--json").out());
    assertThat(unbounded.get("maxSpaceAmplification").isNull()).isTrue();
    assertThat(unbounded.at("/best/cost").asDouble()).isLessThanOrEqualTo(best.get("cost")
        .asDouble());
    CliTest.Result bad = CliTest.run("tune", "--entries", "1e8", "--max-space-amp", "-2");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--max-space-amp: '-2'").contains("or none");
    assertThat(CliTest.run("tune", "--help").out()).contains("--updates=w")
        .contains("Fraction of operations that are updates").contains("default 0.5");
  }
}
