package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code examples/compare-*.json} the docs tell users to run parses as a comparison, with
 * distinct system labels (so {@code compare --system LABEL} picks exactly one entry).
 */
class ExampleComparisonsTest {
  @Test
  void everyExampleComparisonParsesWithDistinctLabels() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(Path.of("..", "..", "examples"))) {
      files = s.filter(p -> p.getFileName().toString().matches("compare-.*\\.json")).sorted()
          .toList();
    }
    assertThat(files).extracting(p -> p.getFileName().toString())
        .contains("compare-quick.json", "compare-long.json");
    for (Path f : files) {
      CompareConfig cfg = CompareConfigJson.read(f);
      List<String> labels = cfg.systems().stream().map(SystemSpec::label).toList();
      assertThat(labels).as(f.toString()).isNotEmpty().doesNotHaveDuplicates();
    }
    CompareConfig longRun =
        CompareConfigJson.read(Path.of("..", "..", "examples", "compare-long.json"));
    assertThat(longRun.systems().stream().map(SystemSpec::label).toList())
        .containsExactly("rocksdb-universal", "rocksdb-leveled", "strata-pl-36-store",
            "strata-lazy-32-store");
    assertThat(longRun.twoPhase().running().durationSeconds()).isEqualTo(1800);
  }
}
