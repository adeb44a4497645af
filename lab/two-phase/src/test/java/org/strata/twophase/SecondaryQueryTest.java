package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;

/**
 * The running phase's secondary-index queries ({@code running.queries.kind secondary}): each
 * returns exactly the records whose current secondary value is in its range, under eager and lazy
 * maintenance; the configuration and the runner refuse it where there is no secondary index.
 */
class SecondaryQueryTest {
  @TempDir Path tmp;

  private static final long KEYS = 2000;

  private static DatasetConfig dataset(String maintenance) {
    return DatasetConfigJson.parse("""
        {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
         "memory-component": {"size": "16KB", "count": 2},
         "secondary-indexes": [{"name": "by_field1", "field": "field1"},
                               {"name": "by_field2", "field": "field2"}],
         "secondary-maintenance": "%s"}
        """.formatted(maintenance), "test");
  }

  /**
   * Writes every key, then upserts random keys three times as many with new secondary values
   * (flushing on the way, so that old values sit in disk components); queries random ranges of
   * each selectivity and compares each answer with the records' current values.
   */
  private void exact(String maintenance) throws Exception {
    DatasetConfig dc = dataset(maintenance);
    Path dir = tmp.resolve(maintenance);
    RecordShape shape = new RecordShape(4, 8, KEYS);
    String[] current = new String[(int) KEYS];
    SplittableRandom w = new SplittableRandom(5);
    StrataDatasetTarget target = new StrataDatasetTarget("strata", dc, 16 << 10);
    assertThat(target.secondaryIndexes()).containsExactly("by_field1", "by_field2");
    int changed = 0;
    try (SystemUnderTest sut = target.open(dir, new PhaseSetup(PhaseSetup.Kind.RUNNING,
        new NamedPlugin("greedy", Map.of()), null))) {
      for (long i = 0; i < 4 * KEYS; i++) {
        int id = (int) (i < KEYS ? i : w.nextLong(KEYS));
        Map<String, String> f = shape.fields(w);
        changed += current[id] != null && !current[id].equals(f.get("field1")) ? 1 : 0;
        current[id] = f.get("field1");
        sut.write(new GeneratedRecord(RecordShape.key(id), f));
        if (i % 1500 == 0) {
          sut.flush();
        }
      }
      QueryTarget q = sut.queries();
      SplittableRandom r = new SplittableRandom(11);
      long found = 0;
      for (int selectivity : List.of(1, 10, 100, 1000)) {
        long inRange = 0;
        for (int n = 0; n < 40; n++) {
          String[] range = SecondaryQuery.range(KEYS, selectivity, r);
          assertThat(Long.parseLong(range[1]) - Long.parseLong(range[0]) + 1)
              .isEqualTo(selectivity);
          List<String> expected = new ArrayList<>();
          for (int id = 0; id < KEYS; id++) {
            if (current[id].compareTo(range[0]) >= 0 && current[id].compareTo(range[1]) <= 0) {
              expected.add(RecordShape.key(id));
            }
          }
          List<String> got = q.secondaryRange("by_field1", range[0], range[1]);
          assertThat(got).as(maintenance + " " + range[0] + ".." + range[1])
              .containsExactlyElementsOf(expected);
          inRange += got.size();
        }
        // about `selectivity` records a query: the values are uniform over the keys
        assertThat(inRange / 40.0).as("selectivity " + selectivity)
            .isBetween(selectivity * 0.5, selectivity * 1.5 + 1);
        found += inRange;
      }
      assertThat(found).isPositive();
    }
    assertThat(changed).isGreaterThan(1000);
    if (maintenance.equals("lazy")) {
      // lazy leaves the old entries: the answers were exact only because each record was
      // checked against the primary index
      try (Dataset ds = Dataset.open(dir, dc)) {
        long stale = ds.verify().staleEntries().values().stream().mapToLong(Long::longValue)
            .sum();
        assertThat(stale).isPositive();
      }
    }
  }

  @Test
  void eagerQueriesReturnExactlyTheRecordsInRange() throws Exception {
    exact("eager");
  }

  @Test
  void lazyQueriesReturnExactlyTheRecordsInRangeDespiteStaleEntries() throws Exception {
    exact("lazy");
  }

  @Test
  void rangesSpanTheSelectivityWithinTheKeys() {
    SplittableRandom r = new SplittableRandom(3);
    TreeMap<Long, Integer> lows = new TreeMap<>();
    for (int i = 0; i < 2000; i++) {
      String[] range = SecondaryQuery.range(100, 10, r);
      long lo = Long.parseLong(range[0]);
      assertThat(range[0]).hasSize(12);
      assertThat(Long.parseLong(range[1])).isEqualTo(lo + 9);
      lows.merge(lo, 1, Integer::sum);
    }
    assertThat(lows.firstKey()).isZero();
    assertThat(lows.lastKey()).isEqualTo(90);
    assertThat(SecondaryQuery.range(5, 5, r)).containsExactly("000000000000", "000000000004");
    assertThatThrownBy(() -> SecondaryQuery.range(5, 6, r))
        .hasMessageContaining("selectivity must be 1 to the 5 keys, got 6");
  }

  private static final String WITH_INDEXES = """
      {"merge-policy": {"name": "tiering"},
       "secondary-indexes": [{"name": "by_field1", "field": "field1"},
                             {"name": "by_field2", "field": "field2"}]}""";

  private static TwoPhaseConfig parse(String dataset, String running) {
    return TwoPhaseConfigJson.parse("{\"dataset\": " + dataset + ", \"load\": {\"records\":"
        + " 5000}, \"running\": " + running + "}", "t", "x");
  }

  private static void refused(String dataset, String running, String message) {
    assertThatThrownBy(() -> parse(dataset, running))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void theConfigurationNamesTheIndexAndRefusesWhatCannotRun() {
    TwoPhaseConfig c = parse(WITH_INDEXES, "{\"queries\": {\"threads\": 8, \"kind\":"
        + " \"secondary\", \"selectivity\": 1000}}");
    assertThat(c.running().queries()).isEqualTo(new TwoPhaseConfig.Queries(8, "secondary",
        10_000, 1000, "by_field1"));
    assertThat(parse(WITH_INDEXES, "{\"queries\": {\"kind\": \"secondary\", \"index\":"
        + " \"by_field2\"}}").running().queries().index()).isEqualTo("by_field2");
    assertThat(parse(WITH_INDEXES, "{}").running().queries().selectivity()).isEqualTo(100);
    assertThat(TwoPhaseConfigJson.parse(TwoPhaseConfigJson.toText(c), "again", "y"))
        .isEqualTo(c);
    refused("{}", "{\"queries\": {\"kind\": \"secondary\"}}",
        "running.queries.kind: 'secondary' is not allowed; allowed: point, zero-result, short-scan,"
            + " long-scan (secondary needs dataset.secondary-indexes");
    refused(WITH_INDEXES, "{\"queries\": {\"kind\": \"secondary\", \"index\": \"by_field3\"}}",
        "running.queries.index: 'by_field3' is not allowed; allowed: one of the dataset's"
            + " secondary indexes: by_field1, by_field2");
    refused(WITH_INDEXES, "{\"queries\": {\"kind\": \"point\", \"index\": \"by_field1\"}}",
        "running.queries.index: 'by_field1' is not allowed; allowed: no index unless"
            + " running.queries.kind is secondary");
    refused(WITH_INDEXES, "{\"queries\": {\"kind\": \"secondary\", \"selectivity\": 5001}}",
        "running.queries.selectivity: '5001' is not allowed; allowed: 1 to load.records (5000)");
    refused(WITH_INDEXES, "{\"queries\": {\"kind\": \"secondary\", \"selectivity\": 0}}",
        "running.queries.selectivity");
    refused(WITH_INDEXES, "{\"queries\": {\"kind\": \"index\"}}",
        "allowed: point, zero-result, short-scan, long-scan, secondary");
  }

  @Test
  void aStoreTargetRefusesSecondaryQueriesBeforeLoading() {
    TwoPhaseConfig c = parse(WITH_INDEXES, "{\"queries\": {\"threads\": 2, \"kind\":"
        + " \"secondary\"}}");
    Path out = tmp.resolve("store");
    assertThatThrownBy(() -> new TwoPhaseRunner(c, new StrataStoreTarget("strata-store",
        c.dataset().store(), 64 << 10), out, null, false, false, false).run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("running.queries.kind secondary: strata-store (strata) has no secondary"
            + " index 'by_field1' to query (it has no secondary indexes); use point, short-scan"
            + " or long-scan, or set running.queries.threads to 0");
    assertThat(out).doesNotExist();
  }
}
