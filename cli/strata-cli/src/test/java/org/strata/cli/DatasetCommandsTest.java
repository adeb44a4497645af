package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.cli.CliTest.Result;
import org.strata.lsm.dataset.Dataset;

/** {@code strata import}, {@code query} and {@code get} on datasets, including bad input. */
class DatasetCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  Path dir;
  Path config;

  @BeforeEach
  void setUp() throws Exception {
    dir = tmp.resolve("ds");
    config = tmp.resolve("ds.json");
    Files.writeString(config, """
        {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
         "memory-component": {"size": "32KB", "count": 2},
         "log": {"durability": "none"},
         "secondary-indexes": [{"name": "by_field1", "field": "field1"}],
         "secondary-maintenance": "eager", "partitions": 3}
        """);
  }

  private Result importLines(String... lines) throws Exception {
    Path f = tmp.resolve("records-" + System.nanoTime() + ".jsonl");
    Files.writeString(f, String.join("\n", lines) + "\n");
    return CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", f.toString(), "--json");
  }

  @Test
  void badLinesAreRejectedWithLineNumberAndReasonAndTheImportGoesOn() throws Exception {
    Result r = importLines(
        "{\"op\":\"upsert\",\"key\":\"k1\",\"fields\":{\"field0\":\"a\",\"field1\":\"x\"}}",
        "{\"op\":\"upsert\",\"key\":\"k2\",\"fields\":{\"field1\":\"x\"",
        "{\"op\":\"replace\",\"key\":\"k3\",\"fields\":{\"field1\":\"x\"}}",
        "{\"op\":\"upsert\",\"fields\":{\"field1\":\"x\"}}",
        "{\"op\":\"upsert\",\"key\":\"k5\",\"fields\":{\"field0\":\"ok\",\"field1\":42}}",
        "",
        "{\"op\":\"upsert\",\"key\":\"k7\",\"fields\":{\"field1\":\"y\"}}",
        "{\"op\":\"delete\",\"key\":\"k7\"}",
        "{\"op\":\"upsert\",\"key\":\"k9\",\"fields\":{\"field1\":\"x\"}}");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("applied").asLong()).isEqualTo(4);
    assertThat(s.get("upserts").asLong()).isEqualTo(3);
    assertThat(s.get("deletes").asLong()).isEqualTo(1);
    assertThat(s.get("rejected").asLong()).isEqualTo(4);
    List<String> rejections = new ArrayList<>();
    s.get("rejections").forEach(n -> rejections.add(n.get("line").asLong() + ": "
        + n.get("reason").asText()));
    assertThat(rejections).hasSize(4);
    assertThat(rejections.get(0)).startsWith("2: not valid JSON");
    assertThat(rejections.get(1)).isEqualTo("3: unknown op 'replace'; allowed: upsert, delete");
    assertThat(rejections.get(2)).startsWith("4: missing key");
    assertThat(rejections.get(3)).isEqualTo(
        "5: field 'field1' is a number (42); field values must be strings");
    assertThat(r.err()).contains("line 2: rejected: not valid JSON")
        .contains("line 5: rejected: field 'field1' is a number");
    // Nothing of a rejected line was applied; the good lines around them were.
    assertThat(CliTest.run("get", "--dir", dir.toString(), "k5").out().trim())
        .isEqualTo("not found");
    assertThat(CliTest.run("get", "--dir", dir.toString(), "k3").code()).isEqualTo(1);
    Result q = CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1", "--eq", "x");
    assertThat(q.code()).as(q.err()).isZero();
    assertThat(q.lines()).containsExactly(
        "{\"key\":\"k1\",\"fields\":{\"field0\":\"a\",\"field1\":\"x\"}}",
        "{\"key\":\"k9\",\"fields\":{\"field1\":\"x\"}}");
    assertThat(CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1", "--eq", "y")
        .lines()).isEmpty();
    Result g = CliTest.run("get", "--dir", dir.toString(), "k1");
    assertThat(g.code()).isZero();
    assertThat(JSON.readTree(g.out()).get("fields").get("field0").asText()).isEqualTo("a");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void keysFieldsAndLinesThatAreNotUnicodeAreRejectedAndExoticKeysLandByteForByte(int threads)
      throws Exception {
    java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream();
    String[] text = {
        "{\"key\":\"good1\",\"fields\":{\"field1\":\"x\"}}",
        "{\"key\":\"\\ud800\",\"fields\":{\"field1\":\"x\"}}",
        "{\"key\":\"k3\",\"fields\":{\"field1\":\"x\\udfff\"}}",
        "{\"key\":\"k4\",\"fields\":{\"f\\ud800\":\"x\"}}",
        null, // line 5: malformed UTF-8 bytes, written below
        "{\"op\":\"delete\",\"key\":\"\\udc00\"}",
        "{\"key\":\"\\ud83d\\ude00\\u0000e\\u0301\",\"fields\":{\"field1\":\"\\udbff\\udfff\"}}",
        "{\"key\":\"?\",\"fields\":{\"field1\":\"q\"}}"};
    for (String t : text) {
      if (t == null) {
        f.write("{\"key\":\"k5".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        f.write(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}); // an encoded surrogate
        f.write("\",\"fields\":{}}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } else {
        f.write(t.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      f.write('\n');
    }
    Path file = tmp.resolve("unicode.jsonl");
    Files.write(file, f.toByteArray());
    Result r = CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", file.toString(), "--threads", String.valueOf(threads), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode s = JSON.readTree(r.out());
    assertThat(s.get("applied").asLong()).isEqualTo(3);
    assertThat(s.get("rejected").asLong()).isEqualTo(5);
    List<String> rejections = new ArrayList<>();
    s.get("rejections").forEach(n -> rejections.add(n.get("line").asLong() + ": "
        + n.get("reason").asText()));
    assertThat(rejections.get(0)).startsWith(
        "2: key is not valid Unicode text: lone surrogate U+D800 at index 0;");
    assertThat(rejections.get(1)).startsWith(
        "3: value of field 'field1' is not valid Unicode text: lone surrogate U+DFFF at index 1;");
    assertThat(rejections.get(2)).startsWith("4: ").contains("surrogate");
    assertThat(rejections.get(3)).startsWith(
        "5: line is not valid UTF-8: malformed bytes 0xED 0xA0 0x80 at byte 10;");
    assertThat(rejections.get(4)).startsWith("6: key is not valid Unicode text: lone surrogate"
        + " U+DC00");
    assertThat(r.err()).contains("line 2: rejected: key is not valid Unicode text");
    String exotic = "\ud83d\ude00\u0000e\u0301";
    try (Dataset ds = Dataset.open(dir, null)) {
      // Only the three good lines landed; the lone surrogate did not become '?'.
      assertThat(ds.scan(null, 100)).extracting(r2 -> r2.key())
          .containsExactly("?", "good1", exotic);
      assertThat(ds.get("?").orElseThrow().fields()).containsEntry("field1", "q");
      assertThat(ds.get(exotic).orElseThrow().fields())
          .containsEntry("field1", "\udbff\udfff");
      assertThat(ds.queryEq("by_field1", "\udbff\udfff")).extracting(r2 -> r2.key())
          .containsExactly(exotic);
    }
  }

  @Test
  void manyRecordsWithSeveralThreadsMatchASingleThreadedImport() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 6000; i++) {
      int k = i % 900;
      if (i % 13 == 0) {
        sb.append("{\"op\":\"delete\",\"key\":\"user").append(k).append("\"}\n");
      } else {
        sb.append("{\"key\":\"user").append(k).append("\",\"fields\":{\"field1\":\"v")
            .append(i % 7).append("\",\"field2\":\"").append("p".repeat(100)).append("\"}}\n");
      }
    }
    Path f = tmp.resolve("many.jsonl");
    Files.writeString(f, sb);
    Result one = CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", f.toString());
    assertThat(one.code()).as(one.err()).isZero();
    assertThat(one.out()).contains("rejected 0");
    Path dir2 = tmp.resolve("ds2");
    Result four = CliTest.run("import", "--dir", dir2.toString(), "--config", config.toString(),
        "--file", f.toString(), "--threads", "4", "--json");
    assertThat(four.code()).as(four.err()).isZero();
    assertThat(JSON.readTree(four.out()).get("applied").asLong()).isEqualTo(6000);
    for (int v = 0; v < 7; v++) {
      Result a = CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1", "--eq",
          "v" + v);
      Result b = CliTest.run("query", "--dir", dir2.toString(), "--index", "by_field1", "--eq",
          "v" + v);
      assertThat(a.lines()).isNotEmpty().isEqualTo(b.lines());
    }
    Result range = CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1",
        "--from", "v2", "--to", "v4", "--json");
    JsonNode rj = JSON.readTree(range.out());
    long expected = 0;
    for (int v = 2; v <= 4; v++) {
      expected += CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1", "--eq",
          "v" + v).lines().size();
    }
    assertThat(rj.get("count").asLong()).isEqualTo(expected);
    try (Dataset ds = Dataset.open(dir2, null)) {
      assertThat(ds.verify().faults()).isEmpty();
    }
  }

  @Test
  void badArgumentsAndConfigurationsFailWithExitCodeTwo() throws Exception {
    Path records = tmp.resolve("r.jsonl");
    Files.writeString(records, "{\"key\":\"k\"}\n");
    Path twice = tmp.resolve("twice.json");
    Files.writeString(twice, "{\"secondary-indexes\": [{\"name\": \"a\", \"field\": \"field1\"},"
        + " {\"name\": \"b\", \"field\": \"field1\"}]}");
    Result r = CliTest.run("import", "--dir", dir.toString(), "--config", twice.toString(),
        "--file", records.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("secondary-indexes.field: 'field1'");
    assertThat(Files.exists(dir)).isFalse();
    Path mode = tmp.resolve("mode.json");
    Files.writeString(mode, "{\"secondary-maintenance\": \"deferred\"}");
    r = CliTest.run("import", "--dir", dir.toString(), "--config", mode.toString(), "--file",
        records.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("secondary-maintenance: 'deferred' is not allowed; allowed:"
        + " eager, lazy");
    r = CliTest.run("import", "--dir", dir.toString(), "--file", records.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("give --config FILE");
    r = CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(), "--file",
        tmp.resolve("missing.jsonl").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("does not exist");
    assertThat(CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", records.toString()).code()).isZero();
    r = CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--eq VALUE or --from");
    r = CliTest.run("query", "--dir", dir.toString(), "--index", "by_field1", "--from", "b",
        "--to", "a");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("above --to");
    r = CliTest.run("query", "--dir", dir.toString(), "--index", "by_field9", "--eq", "a");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no secondary index 'by_field9'; its secondary indexes:"
        + " by_field1");
    r = CliTest.run("put", "--dir", dir.toString(), "k", "v");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("is a dataset");
  }

  @Test
  void statsAndVerifyCoverEveryTreeAndCatchACorruptedComponent() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      sb.append("{\"key\":\"user").append(i % 700).append("\",\"fields\":{\"field1\":\"v")
          .append(i % 7).append("\",\"field2\":\"").append("p".repeat(80)).append("\"}}\n");
    }
    Path f = tmp.resolve("many.jsonl");
    Files.writeString(f, sb);
    assertThat(CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", f.toString()).code()).isZero();
    Result stats = CliTest.run("stats", "--dir", dir.toString(), "--json");
    assertThat(stats.code()).as(stats.err()).isZero();
    JsonNode trees = JSON.readTree(stats.out()).get("trees");
    assertThat(trees.size()).isEqualTo(6);
    long primaryEntries = 0;
    for (int p = 0; p < 3; p++) {
      assertThat(trees.get("p" + p + "/primary").get("flushes").asLong()).isPositive();
      primaryEntries += trees.get("p" + p + "/primary").get("entries").asLong();
    }
    assertThat(primaryEntries).isGreaterThanOrEqualTo(700);
    Result ok = CliTest.run("verify", "--dir", dir.toString());
    assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
    assertThat(ok.out()).contains("700 records").endsWith("ok\n");
    Path component;
    try (var s = Files.list(dir.resolve("p1").resolve("by_field1"))) {
      component = s.filter(p -> p.toString().endsWith(".cmp")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(component);
    bytes[100] ^= 0x5A;
    Files.write(component, bytes);
    Result bad = CliTest.run("verify", "--dir", dir.toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.out()).contains("FAULT: ").contains(component.toString());
  }

  @Test
  void genRecordsWritesImportableYcsbStyleRecords() throws Exception {
    Path f = tmp.resolve("gen.jsonl");
    Result g = CliTest.run("gen-records", "--records", "50", "--mode", "update", "--keys", "1000",
        "--field-length", "20", "--out", f.toString());
    assertThat(g.code()).as(g.err()).isZero();
    List<String> lines = Files.readAllLines(f);
    assertThat(lines).hasSize(50);
    org.strata.lsm.dataset.FeedParser parser = new org.strata.lsm.dataset.FeedParser();
    for (String l : lines) {
      org.strata.lsm.dataset.FeedRecord r = parser.parse(l);
      assertThat(r.key()).matches("user\\d{12}");
      assertThat(r.fields()).hasSize(10);
      assertThat(r.fields().get("field1")).matches("\\d{12}");
      assertThat(Long.parseLong(r.fields().get("field2"))).isBetween(0L, 999L);
      assertThat(r.fields().get("field0")).matches("[a-z]{20}");
    }
    Result i = CliTest.run("import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", f.toString(), "--json");
    assertThat(JSON.readTree(i.out()).get("rejected").asLong()).isZero();
  }

  /**
   * {@code strata scan} on a dataset: records in primary-key order as JSON lines (across its three
   * partitions, more records than one piece of the scan), with --from/--to/--limit/--count, and
   * its output imports into a fresh dataset that then scans the same.
   */
  @Test
  void scanPrintsADatasetAsJsonLinesThatImportReads() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      lines.add(String.format("{\"key\":\"k%05d\",\"fields\":{\"field0\":\"v%d\","
          + "\"field1\":\"%s\"}}", i, i, i % 2 == 0 ? "even" : "odd"));
    }
    lines.add("{\"op\":\"delete\",\"key\":\"k00007\"}");
    assertThat(importLines(lines.toArray(String[]::new)).code()).isZero();
    Result all = CliTest.run("scan", "--dir", dir.toString());
    assertThat(all.code()).as(all.err()).isZero();
    List<String> out = all.lines();
    assertThat(out).hasSize(4999);
    assertThat(out.get(0)).isEqualTo("{\"key\":\"k00000\",\"fields\":{\"field0\":\"v0\","
        + "\"field1\":\"even\"}}");
    assertThat(out).noneMatch(l -> l.contains("k00007"));
    List<String> keys = out.stream().map(l -> l.substring(8, 14)).toList();
    assertThat(keys).isSorted().doesNotHaveDuplicates();
    Result range = CliTest.run("scan", "--dir", dir.toString(), "--from", "k00005", "--to",
        "k00010");
    assertThat(range.lines()).hasSize(5).allMatch(l -> l.compareTo("{\"key\":\"k00005") >= 0);
    assertThat(CliTest.run("scan", "--dir", dir.toString(), "--count").out().trim())
        .isEqualTo("4999");
    assertThat(CliTest.run("scan", "--dir", dir.toString(), "--from", "k04990", "--count")
        .out().trim()).isEqualTo("10");
    assertThat(CliTest.run("scan", "--dir", dir.toString(), "--limit", "3").lines())
        .hasSize(3);

    Path dump = tmp.resolve("dump.jsonl");
    Files.writeString(dump, all.out());
    Path copy = tmp.resolve("copy");
    Result imported = CliTest.run("import", "--dir", copy.toString(), "--config",
        config.toString(), "--file", dump.toString(), "--json");
    assertThat(imported.code()).as(imported.err()).isZero();
    assertThat(CliTest.run("scan", "--dir", copy.toString()).out()).isEqualTo(all.out());
  }
}
