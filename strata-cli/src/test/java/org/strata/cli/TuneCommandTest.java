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
}
