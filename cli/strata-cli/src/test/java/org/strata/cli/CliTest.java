package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;

class CliTest {
  @TempDir Path tmp;
  Path dir;
  Path config;

  record Result(int code, String out, String err) {
    List<String> lines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
  }

  static Result run(String... args) {
    return run(ArgText.EXACT, args);
  }

  /** Runs the command line with arguments that became strings as {@code argv} says. */
  static Result run(ArgText argv, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), argv, args);
    return new Result(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  @BeforeEach
  void setUp() throws Exception {
    dir = tmp.resolve("store");
    config = tmp.resolve("small.json");
    Files.writeString(config, "{\"memory-component\": {\"size\": \"64KB\"},"
        + " \"merge-policy\": {\"name\": \"constant\", \"parameters\": {\"num-components\":"
        + " \"3\"}},"
        + " \"log\": {\"durability\": \"none\"}}");
  }

  /**
   * A store with TRIAD-LOG: {@code stats --json} counts its flushes as index bytes and no data
   * bytes, and {@code verify} (which reads the segment records the indexes point at) passes.
   */
  @Test
  void statsJsonShowsTriadLogFlushesAsIndexBytesOnly() throws Exception {
    Path triad = tmp.resolve("triad-log.json");
    Files.writeString(triad, "{\"memory-component\": {\"size\": \"64KB\"},"
        + " \"merge-policy\": {\"name\": \"constant\", \"parameters\": {\"num-components\":"
        + " \"50\"}},"
        + " \"log\": {\"durability\": \"none\"}, \"triad\": {\"log\": true}}");
    Result r = run("load", "--dir", dir.toString(), "--config", triad.toString(), "--records",
        "2000", "--record-size", "200", "--seed", "5", "--quiet");
    assertThat(r.code()).as(r.err()).isZero();
    Result stats = run("stats", "--dir", dir.toString(), "--json");
    assertThat(stats.code()).as(stats.err()).isZero();
    JsonNode bytes = new ObjectMapper().readTree(stats.out()).get("bytes");
    assertThat(bytes.get("flushIndexBytes").asLong()).isPositive();
    assertThat(bytes.get("flushDataBytes").asLong()).isZero();
    Result verify = run("verify", "--dir", dir.toString());
    assertThat(verify.code()).as(verify.out() + verify.err()).isZero();
  }

  @Test
  void loadSequentialPrintsIncreasingAcksAndEveryValueReadsBack() throws Exception {
    Result quiet = run("load", "--dir", tmp.resolve("plain").toString(), "--config",
        config.toString(), "--records", "2000", "--record-size", "100");
    assertThat(quiet.code()).as(quiet.err()).isZero();
    assertThat(quiet.out()).as("no acks unless asked").doesNotContain("acked")
        .startsWith("loaded 2,000 records");
    Result r = run("load", "--dir", dir.toString(), "--config", config.toString(), "--records",
        "2000", "--record-size", "100", "--seed", "5", "--batch-size", "300", "--acks");
    assertThat(r.code()).as(r.err()).isZero();
    List<Long> acks = new ArrayList<>();
    for (String l : r.lines()) {
      if (l.startsWith("acked ")) {
        acks.add(Long.parseLong(l.substring(6)));
      }
    }
    assertThat(acks).isSorted().doesNotHaveDuplicates().last().isEqualTo(2000L);
    assertThat(acks).hasSize(7);
    assertThat(r.out()).contains("loaded 2,000 records");
    for (long id : new long[] {0, 1, 999, 1999}) {
      Result g = run("get", "--dir", dir.toString(), RecordGenerator.key(id));
      assertThat(g.code()).isZero();
      assertThat(g.out().trim()).isEqualTo(new String(RecordGenerator.value(id, 5, 100),
          StandardCharsets.UTF_8));
    }
    assertThat(run("scan", "--dir", dir.toString(), "--count").out().trim()).isEqualTo("2000");
    Result range = run("scan", "--dir", dir.toString(), "--from", RecordGenerator.key(10), "--to",
        RecordGenerator.key(14));
    assertThat(range.lines()).hasSize(5);
    assertThat(range.lines().get(0)).startsWith(RecordGenerator.key(10) + "\t");
    assertThat(run("scan", "--dir", dir.toString(), "--limit", "3").lines()).hasSize(3);

    Result stats = run("stats", "--dir", dir.toString(), "--json");
    assertThat(stats.code()).isZero();
    JsonNode j = new ObjectMapper().readTree(stats.out());
    assertThat(j.get("diskComponents").asInt()).isPositive();
    assertThat(j.get("entries").asLong()).isGreaterThanOrEqualTo(2000);
    assertThat(j.get("bytesFlushed").asLong()).isPositive();
    assertThat(j.get("flushes").asLong()).isGreaterThan(2);
    assertThat(j.get("bytesMerged").asLong()).isNotNegative(); // a merge may be cut by close
    assertThat(j.get("writeAmplification").asDouble()).isGreaterThanOrEqualTo(1.0);
    assertThat(j.get("stalls").get("memoryFull").has("seconds")).isTrue();
    assertThat(j.get("stalls").get("constraint").has("count")).isTrue();
    assertThat(j.get("runList").size()).isEqualTo(j.get("runs").asInt());

    Result verify = run("verify", "--dir", dir.toString());
    assertThat(verify.code()).isZero();
    assertThat(verify.out()).contains("ok");
  }

  @Test
  void randomKeyOrderWritesEveryKeyOnceAndPrintsNoAcks() throws Exception {
    Result r = run("load", "--dir", dir.toString(), "--config", config.toString(), "--records",
        "1500", "--record-size", "50", "--key-order", "random", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).doesNotContain("acked");
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("records").asLong()).isEqualTo(1500);
    assertThat(j.get("recordsPerSecond").asDouble()).isPositive();
    assertThat(j.get("peakHeapBytes").asLong()).isPositive();
    assertThat(run("scan", "--dir", dir.toString(), "--count").out().trim()).isEqualTo("1500");
    assertThat(run("get", "--dir", dir.toString(), RecordGenerator.key(1499)).code()).isZero();
  }

  /** One reader of counts and sizes; --json leaves only JSON on stdout; --quiet one line. */
  @Test
  void countsAndSizesInEveryFormAndJsonOnlyOnStdout() throws Exception {
    Result r = run("load", "--dir", dir.toString(), "--config", config.toString(), "--records",
        "1e3", "--record-size", "1KB", "--batch-size", "1_00", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("records").asLong()).isEqualTo(1000);
    assertThat(r.out().trim()).startsWith("{").endsWith("}").doesNotContain("acked");
    assertThat(run("get", "--dir", dir.toString(), RecordGenerator.key(999)).out().trim())
        .hasSize(1024);
    Result stats = run("stats", "--dir", dir.toString());
    assertThat(stats.out()).as("sizes for people in text").containsPattern(
        "diskBytes +[0-9.]+ (KiB|MiB)\n").containsPattern("bytesFlushed +[0-9.]+ (KiB|MiB)\n");
    Result quiet = run("load", "--dir", dir.toString(), "--records", "1_000", "--quiet");
    assertThat(quiet.code()).as(quiet.err()).isZero();
    assertThat(quiet.lines()).hasSize(1);
    assertThat(quiet.out()).startsWith("loaded 1,000 records");
    Result bad = run("load", "--dir", dir.toString(), "--records", "1.5e0");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--records").contains("1.5e0").contains("1_000_000 or 1e6");
    Result badSize = run("load", "--dir", dir.toString(), "--records", "1", "--record-size",
        "1XB");
    assertThat(badSize.code()).isEqualTo(2);
    assertThat(badSize.err()).contains("--record-size").contains("1XB").contains("4KB");
    assertThat(badSize.err()).as("one line and where help is, not the whole help")
        .doesNotContain("Usage:").contains("Try 'strata load --help'");
    assertThat(run("help").code()).isZero();
    assertThat(run("help").out()).contains("load").contains("verify");
    assertThat(run("help", "load").out()).contains("Usage: strata load");
    Result typo = run("laod");
    assertThat(typo.code()).isEqualTo(2);
    assertThat(typo.err()).contains("'laod'").contains("Try 'strata"
        + " help'").doesNotContain("Usage:");
  }

  @Test
  void putGetDeleteAndNotFound() {
    assertThat(run("put", "--dir", dir.toString(), "k1", "hello world").code()).isZero();
    Result g = run("get", "--dir", dir.toString(), "k1");
    assertThat(g.code()).isZero();
    assertThat(g.out()).isEqualTo("hello world\n");
    assertThat(run("delete", "--dir", dir.toString(), "k1").code()).isZero();
    Result missing = run("get", "--dir", dir.toString(), "k1");
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.out().trim()).isEqualTo("not found");
  }

  @Test
  void textThatIsNotUnicodeIsRefusedAndStoredBytesThatAreNotUtf8AreNotPrintedChanged() {
    Result bad = run("put", "--dir", dir.toString(), "\ud800", "v");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("key is not valid Unicode text: lone surrogate U+D800 at"
        + " index 0");
    assertThat(Files.exists(dir)).as("nothing written for a refused input").isFalse();
    assertThat(run("put", "--dir", dir.toString(), "k", "v\udc00").err())
        .contains("value is not valid Unicode text: lone surrogate U+DC00 at index 1");
    assertThat(run("get", "--dir", dir.toString(), "\ud800").code()).isEqualTo(2);
    assertThat(run("delete", "--dir", dir.toString(), "\ud800").code()).isEqualTo(2);
    Result noStore = run("scan", "--dir", dir.toString(), "--count");
    assertThat(noStore.code()).as("nothing was ever stored: there is no store to scan")
        .isEqualTo(2);
    assertThat(dir).doesNotExist();
    // An exotic key and value travel unchanged; bytes the Java API stored are not printed changed.
    String k = "\ud83d\ude00e\u0301";
    assertThat(run("put", "--dir", dir.toString(), k, "\u0000?").code()).isZero();
    assertThat(run("get", "--dir", dir.toString(), k).out()).isEqualTo("\u0000?\n");
    try (LsmStore s = LsmStore.open(dir, null)) {
      s.put("raw".getBytes(StandardCharsets.UTF_8), new byte[] {'a', (byte) 0xFF});
    }
    Result raw = run("get", "--dir", dir.toString(), "raw");
    assertThat(raw.code()).isEqualTo(1);
    assertThat(raw.err()).contains("value of key 'raw' is not valid UTF-8: malformed byte 0xFF"
        + " at byte 1");
    assertThat(run("scan", "--dir", dir.toString()).err()).contains("value of key 'raw'");
    assertThat(run("scan", "--dir", dir.toString(), "--from", "s").out())
        .isEqualTo(k + "\t\u0000?\n");
  }

  /**
   * --hex takes any bytes and refuses what is not hex digits; text the JVM may have changed (U+FFFD
   * from argv decoded as UTF-8, non-ASCII from argv decoded as ASCII) is refused with one line.
   * (CommandLineKeysTest runs the same with real argv bytes in child processes.)
   */
  @Test
  void hexArgumentsAreBytesAndArgvTextThatMayHaveChangedIsRefused() {
    String d = dir.toString();
    Result odd = run("put", "--dir", d, "--hex", "abc", "00");
    assertThat(odd.code()).isEqualTo(2);
    assertThat(odd.err()).startsWith("error: KEY 'abc' is not hex: it has an odd number of"
        + " digits; with --hex, keys and values are hex digits");
    Result notHex = run("put", "--dir", d, "--hex", "00", "6g");
    assertThat(notHex.code()).isEqualTo(2);
    assertThat(notHex.err()).startsWith("error: VALUE '6g' is not hex");
    assertThat(dir).doesNotExist();
    assertThat(run("put", "--dir", d, "--hex", "00ff", "").code()).isZero();
    assertThat(run("get", "--dir", d, "--hex", "00FF").out()).isEqualTo("\n");
    assertThat(run("scan", "--dir", d, "--hex").out()).isEqualTo("00ff\t\n");
    Result raw = run("get", "--dir", d, "\u0000\u00ff");
    assertThat(raw.code()).as("U+00FF is two bytes in UTF-8: another key").isEqualTo(1);

    ArgText utf8 = ArgText.decodedWith(StandardCharsets.UTF_8);
    Result replaced = run(utf8, "put", "--dir", d, "a\uFFFD", "v");
    assertThat(replaced.code()).isEqualTo(2);
    assertThat(replaced.err().lines()).hasSize(2);
    assertThat(replaced.err()).startsWith("error: KEY is refused: it is not valid UTF-8")
        .contains("allowed: UTF-8 text, or any bytes as hex digits with --hex");
    assertThat(run(utf8, "put", "--dir", d, "\u00e9", "v").code()).isZero();
    ArgText ascii = ArgText.decodedWith(StandardCharsets.US_ASCII);
    Result nonAscii = run(ascii, "get", "--dir", d, "\u00e9");
    assertThat(nonAscii.code()).isEqualTo(2);
    assertThat(nonAscii.err()).startsWith("error: KEY is refused: it is not ASCII, and the JVM"
        + " decodes arguments with this locale's charset US-ASCII, not UTF-8");
    assertThat(run(ascii, "get", "--dir", d, "--hex", "c3a9").out()).isEqualTo("76\n");
  }

  @Test
  void usageErrorsExitTwoAndNameTheProblem() throws Exception {
    Result badFlag = run("load", "--dir", dir.toString(), "--records", "5", "--recrod-size", "9");
    assertThat(badFlag.code()).isEqualTo(2);
    assertThat(badFlag.err()).contains("--recrod-size");
    Result negative = run("load", "--dir", dir.toString(), "--records", "-1");
    assertThat(negative.code()).isEqualTo(2);
    assertThat(negative.err()).contains("--records").contains("-1");
    Result notNumber = run("load", "--dir", dir.toString(), "--records", "ten");
    assertThat(notNumber.code()).isEqualTo(2);
    assertThat(notNumber.err()).contains("ten");
    Result badOrder = run("load", "--dir", dir.toString(), "--records", "1", "--key-order", "up");
    assertThat(badOrder.code()).isEqualTo(2);
    assertThat(badOrder.err()).contains("sequential").contains("random");
    Result badDurability = run("load", "--dir", dir.toString(), "--records", "1",
        "--durability", "always");
    assertThat(badDurability.code()).isEqualTo(2);
    assertThat(badDurability.err()).contains("always").contains("sync, group, none");
    Result missingDir = run("get", "k");
    assertThat(missingDir.code()).isEqualTo(2);
    assertThat(missingDir.err()).contains("--dir");
    assertThat(run("frobnicate").code()).isEqualTo(2);

    Path badPolicy = tmp.resolve("bad.json");
    Files.writeString(badPolicy, "{\"merge-policy\": {\"name\": \"binomal\"}}");
    Result unknownPolicy = run("load", "--dir", tmp.resolve("never").toString(), "--config",
        badPolicy.toString(), "--records", "10");
    assertThat(unknownPolicy.code()).isEqualTo(2);
    assertThat(unknownPolicy.err()).contains("binomal").contains("constant");
    assertThat(tmp.resolve("never")).doesNotExist();
    Path badKey = tmp.resolve("badkey.json");
    Files.writeString(badKey, "{\"io\": {\"page-sise\": \"4KB\"}}");
    Result unknownKey = run("put", "--dir", tmp.resolve("never").toString(), "--config",
        badKey.toString(), "k", "v");
    assertThat(unknownKey.code()).isEqualTo(2);
    assertThat(unknownKey.err()).contains("io.page-sise");
    Result emptyKey = run("put", "--dir", dir.toString(), "", "v");
    assertThat(emptyKey.code()).isEqualTo(2);
    assertThat(emptyKey.err()).contains("key is empty");
  }

  /**
   * A mistyped --dir: every command that reads or deletes exits 2 naming what is there, and
   * creates nothing (before this, stats printed zeros and left LOCK, MANIFEST, config.json and
   * wal/ behind, get answered 'not found', readbench timed lookups of missing keys).
   */
  @Test
  void readCommandsNeverCreateAStore() throws Exception {
    Path typo = tmp.resolve("typo");
    Path empty = Files.createDirectory(tmp.resolve("empty"));
    Path other = Files.createDirectory(tmp.resolve("other"));
    Files.writeString(other.resolve("notes.txt"), "not a store");
    List<List<String>> commands = List.of(
        List.of("get", "k"), List.of("delete", "k"), List.of("scan"), List.of("scan", "--count"),
        List.of("stats"), List.of("stats", "--json"), List.of("readbench", "--records", "100"),
        List.of("verify"), List.of("query", "--index", "age", "--eq", "5"));
    for (List<String> c : commands) {
      for (Path d : List.of(typo, empty, other)) {
        List<String> args = new ArrayList<>(c.subList(0, 1));
        args.add("--dir");
        args.add(d.toString());
        args.addAll(c.subList(1, c.size()));
        Result r = run(args.toArray(String[]::new));
        assertThat(r.code()).as(args + ": " + r.err()).isEqualTo(2);
        assertThat(r.err()).as(String.join(" ", args)).contains(d + " is not a store or dataset: "
            + (d == typo ? "it does not exist" : d == empty ? "it is empty"
                : "it holds no config.json, MANIFEST or dataset.json"));
        assertThat(r.out()).as(String.join(" ", args)).isEmpty();
      }
    }
    assertThat(typo).doesNotExist();
    try (var s = Files.list(empty)) {
      assertThat(s).as("nothing created in the empty directory").isEmpty();
    }
    try (var s = Files.list(other)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("notes.txt");
    }
    // A store is not a dataset for query, and the existing store still serves reads.
    assertThat(run("put", "--dir", dir.toString(), "k", "v").code()).isZero();
    Result q = run("query", "--dir", dir.toString(), "--index", "age", "--eq", "5");
    assertThat(q.code()).isEqualTo(2);
    assertThat(q.err()).contains("holds a store, not a dataset");
    assertThat(run("get", "--dir", dir.toString(), "k").out()).isEqualTo("v\n");
  }

  /**
   * The store's LOG file gets the engine's flushes at the default level, across commands, and
   * nothing when --log-level is off; the terminal still shows no INFO line.
   */
  @Test
  void storeLogFileRecordsFlushesAndMerges() throws Exception {
    Result r = run("load", "--dir", dir.toString(), "--config", config.toString(), "--records",
        "3000", "--record-size", "100", "--quiet");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).doesNotContain("INFO");
    String log = Files.readString(dir.resolve("LOG"));
    assertThat(log).contains("INFO").contains("flush finished: component id");
    assertThat(run("load", "--dir", dir.toString(), "--records", "3000", "--record-size", "100",
        "--seed", "9", "--quiet").code()).isZero();
    assertThat(Files.readString(dir.resolve("LOG"))).as("appended, not replaced").startsWith(log)
        .hasSizeGreaterThan(log.length());
    Path quiet = tmp.resolve("quiet");
    assertThat(run("load", "--dir", quiet.toString(), "--config", config.toString(),
        "--records", "3000", "--record-size", "100", "--quiet", "--log-level", "off").code())
        .isZero();
    assertThat(quiet.resolve("LOG")).doesNotExist();
    Result bad = run("stats", "--dir", dir.toString(), "--log-level", "loud");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("'loud'").contains("off, error, warn, info, debug, trace");
    assertThat(run("verify", "--dir", dir.toString()).out()).contains("ok");
  }

  /** Every option of every command says what it does, and its default where it has one. */
  @Test
  void everyOptionIsDescribedWithItsDefault() {
    picocli.CommandLine cl = new picocli.CommandLine(new Main());
    List<String> undescribed = new ArrayList<>();
    for (picocli.CommandLine sub : cl.getSubcommands().values()) {
      for (picocli.CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
        if (o.description().length == 0 || String.join("", o.description()).isBlank()) {
          undescribed.add(sub.getCommandName() + " " + o.longestName());
        }
      }
    }
    assertThat(undescribed).isEmpty();
    Result help = run("des", "--help");
    assertThat(help.out()).contains("Default: fair").contains("Default: 4000KB");
  }

  @Test
  void everySubcommandHasHelp() {
    for (String c : List.of("load", "put", "get", "delete", "scan", "stats", "verify")) {
      Result r = run(c, "--help");
      assertThat(r.code()).as(c).isZero();
      assertThat(r.out()).as(c).contains("Usage: strata " + c);
    }
    assertThat(run("--help").out()).contains("load").contains("verify");
  }

  @Test
  void verifyReportsACorruptPageAndExitsOne() throws Exception {
    assertThat(run("load", "--dir", dir.toString(), "--config", config.toString(), "--records",
        "500", "--record-size", "100").code()).isZero();
    Path component;
    try (var s = Files.list(dir)) {
      component = s.filter(p -> p.toString().endsWith(".cmp")).findFirst().orElseThrow();
    }
    byte[] data = Files.readAllBytes(component);
    data[50] ^= 0x10;
    Files.write(component, data);
    Result v = run("verify", "--dir", dir.toString());
    assertThat(v.code()).isEqualTo(1);
    assertThat(v.out()).contains("FAULT: ").contains(component.getFileName().toString())
        .contains("checksum");
  }
}
