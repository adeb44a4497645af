package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reproduce luo-carey} at the quick scale, without the engine's runs (they take about
 * fifteen minutes more; docs/reproduce.md records the full quick run with its command): its
 * simulator runs alone take about five minutes, so it runs only in its own profile, {@code
 * ./mvnw -B -ntp -Pbench,reproduce-quick verify}. Like {@link ReproduceQuickIT} it checks the
 * report's schema and asserts no verdict.
 */
class ReproduceLuoCareyQuickIT {
  @TempDir Path tmp;

  @Test
  void quickScaleWithoutTheEngineRuns() throws Exception {
    CliTest.Result printed = CliTest.run("reproduce", "luo-carey", "--scale", "quick",
        "--print-config");
    assertThat(printed.code()).as(printed.err()).isZero();
    ObjectNode cfg = (ObjectNode) new ObjectMapper().readTree(printed.out());
    cfg.putNull("engine");
    Path file = tmp.resolve("luo-carey-quick-shortened.json");
    Files.writeString(file, cfg.toString());
    Path out = tmp.resolve("luo-carey");
    CliTest.Result r = CliTest.run("reproduce", "luo-carey", "--config", file.toString(), "--out",
        out.toString(), "--json");
    ReproduceQuickIT.check(r, out, "luo-carey", "custom");
  }
}
