package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.dataset.SecondaryMaintenance;

class FeedServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private static DatasetConfig config(long memory, long writeRate) {
    StoreConfig s = StoreConfig.defaults().withMemoryComponent(MemoryComponentConfig.of(memory, 2))
        .withIo(IoConfig.of(writeRate, 1 << 20, 4096)).withDurability(Durability.NONE)
        .withPageCache(PageCacheConfig.of(8 << 20));
    return new DatasetConfig(s, List.of(new SecondaryIndexSpec("by_field1", "field1")),
        SecondaryMaintenance.EAGER, 1);
  }

  @Test
  void badLinesAreRejectedWithReasonsWhileGoodLinesLand() throws Exception {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
          StandardCharsets.UTF_8));
      String lines = String.join("\n",
          "{\"op\":\"upsert\",\"key\":\"k1\",\"fields\":{\"field1\":\"a\"}}",
          "this is not json",
          "{\"op\":\"frob\",\"key\":\"k2\"}",
          "{\"fields\":{\"field1\":\"a\"}}",
          "{\"key\":\"k3\",\"fields\":{\"field1\":7}}",
          "{\"key\":\"k4\",\"fields\":{\"field1\":\"b\"},\"ack\":true}",
          "{\"op\":\"delete\",\"key\":\"k1\",\"ack\":true}",
          "{\"op\":\"get\",\"key\":\"k4\"}",
          "{\"op\":\"scan\",\"key\":\"k\",\"count\":10}") + "\n";
      out.write(lines.getBytes(StandardCharsets.UTF_8));
      out.flush();
      List<JsonNode> replies = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        replies.add(JSON.readTree(in.readLine()));
      }
      assertThat(replies.get(0).toString()).contains("\"ok\":false").contains("\"line\":2")
          .contains("not valid JSON");
      assertThat(replies.get(1).get("reason").asText())
          .isEqualTo("unknown op 'frob'; allowed: upsert, delete, get, scan, stats");
      assertThat(replies.get(2).get("line").asInt()).isEqualTo(4);
      assertThat(replies.get(2).get("reason").asText()).startsWith("missing key");
      assertThat(replies.get(3).get("reason").asText()).contains("field 'field1' is a number");
      assertThat(replies.get(4).toString()).isEqualTo("{\"ok\":true,\"line\":6}");
      assertThat(replies.get(5).toString()).isEqualTo("{\"ok\":true,\"line\":7}");
      assertThat(replies.get(6).get("record").get("fields").get("field1").asText())
          .isEqualTo("b");
      assertThat(replies.get(7).get("records").size()).isEqualTo(1);
      // A client that disconnects mid-line loses only that line.
      try (Socket t = new Socket("127.0.0.1", server.port())) {
        t.getOutputStream().write(("{\"key\":\"k5\",\"fields\":{\"field1\":\"c\"}}\n"
            + "{\"key\":\"k6\",\"fields\":{\"fie").getBytes(StandardCharsets.UTF_8));
        t.getOutputStream().flush();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (ds.get("k5").isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Thread.sleep(200);
      assertThat(ds.get("k5")).isPresent();
      assertThat(ds.get("k6")).isEmpty();
      assertThat(ds.get("k1")).isEmpty();
      assertThat(ds.get("k3")).isEmpty();
      assertThat(ds.queryEq("by_field1", "b")).extracting(DatasetRecord::key)
          .containsExactly("k4");
      FeedStats.Snapshot st = server.stats();
      assertThat(st.rejected()).isEqualTo(4);
      assertThat(st.applied()).isEqualTo(4); // k1, k4, delete k1, k5
    }
  }

  @Test
  void aStalledDatasetStopsTheServerReadingSoNothingPilesUp() throws Exception {
    // 64 KB/s of flush I/O and 64 KB of memory: the dataset stalls within a few records of 16 KB.
    FeedLimits limits = FeedLimits.defaults().withWaiting(1024, 256 << 10);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(64 << 10, 64 << 10));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits);
        Socket s = new Socket("127.0.0.1", server.port())) {
      String pad = "x".repeat(16 << 10);
      int total = 4_000; // 64 MB: far more than the dataset takes while the test runs
      Thread sender = new Thread(() -> {
        try {
          OutputStream out = s.getOutputStream();
          for (int i = 0; i < total; i++) {
            out.write(("{\"key\":\"k" + i + "\",\"fields\":{\"field1\":\"v" + (i % 10)
                + "\",\"pad\":\"" + pad + "\"}}\n").getBytes(StandardCharsets.UTF_8));
          }
          out.flush();
        } catch (Exception ignored) {
          // closed at the end of the test
        }
      });
      sender.setDaemon(true);
      sender.start();
      FeedStats.Snapshot st = await(server, x -> x.readingPaused() == 1,
          "the server stops reading while lines wait");
      System.out.println("stalled dataset: " + st);
      // One socket read may arrive after reading paused (Netty reads up to 16 x 64 KB a call).
      long slack = 16 * 65536 + pad.length() + 100;
      assertThat(st.maxWaitingBytes()).as("bytes of lines waiting on the server")
          .isLessThanOrEqualTo(limits.waitingLineBytes() + slack);
      assertThat(st.lines()).as("lines the server took").isLessThan(total);
    }
  }

  @Test
  void aClientThatNeverReadsHoldsAtMostItsReplyBoundAndTheServerGoesOn() throws Exception {
    FeedLimits limits = FeedLimits.defaults();
    int records = 1000;
    int requests = 300;
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits);
        Socket slow = slowClient(server.port())) {
      List<String> keys = load(ds, records);
      // The hostile client: 300 scans of up to 100,000 records, never reading a reply.
      // Unbounded, the replies would take about 300 x 160 KB = 48 MB of the server's memory.
      byte[] scan = "{\"op\":\"scan\",\"key\":\"a\",\"count\":100000}\n"
          .getBytes(StandardCharsets.UTF_8);
      OutputStream out = slow.getOutputStream();
      for (int i = 0; i < requests; i++) {
        out.write(scan);
      }
      out.flush();
      // Until the kernel's socket buffers are full the server's buffer drains now and then; the
      // steady state: the connection's buffer is full, its worker waits and it reads no more.
      long full = limits.replyBytesPerConnection() - limits.replyChunkBytes();
      FeedStats.Snapshot st = await(server, x -> (x.maxConnectionUnsentReplyBytes() > full
          && x.waitingForReplyRoom() == 1 && x.readingPaused() == 1) || x.reads() == requests,
          "the connection waits for reply room and stops reading");
      System.out.println("one client never reading: " + st);
      assertThat(st.maxUnsentReplyBytes()).as("the server's reply buffers, at most")
          .isLessThanOrEqualTo(limits.replyBytesPerConnection());
      assertThat(st.reads()).as("scans answered in full").isLessThan(requests);
      // Another client is served meanwhile.
      try (Socket other = new Socket("127.0.0.1", server.port())) {
        BufferedReader in = reader(other);
        other.getOutputStream().write(("{\"op\":\"get\",\"key\":\"k0007\"}\n"
            + "{\"op\":\"scan\",\"key\":\"k0990\",\"count\":5}\n"
            + "{\"key\":\"A-other\",\"fields\":{\"field1\":\"z\"},\"ack\":true}\n")
            .getBytes(StandardCharsets.UTF_8));
        other.getOutputStream().flush();
        assertThat(JSON.readTree(in.readLine()).get("record").get("key").asText())
            .isEqualTo("k0007");
        assertThat(JSON.readTree(in.readLine()).get("records")).extracting(n -> n.get("key")
            .asText()).containsExactly("k0990", "k0991", "k0992", "k0993", "k0994");
        assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":3}");
      }
      // The slow client reads at last: every reply, in order and whole.
      BufferedReader in = reader(slow);
      for (int i = 0; i < requests; i++) {
        JsonNode reply = JSON.readTree(in.readLine());
        assertThat(reply.get("ok").asBoolean()).as("reply %d", i).isTrue();
        List<String> got = new ArrayList<>(records);
        reply.get("records").forEach(n -> got.add(n.get("key").asText()));
        assertThat(got).as("reply %d", i).isEqualTo(keys);
        assertThat(reply.get("records").get(records - 1).get("fields").get("pad").asText())
            .hasSize(100);
      }
      st = await(server, x -> x.unsentReplyBytes() == 0 && x.reads() == requests + 2,
          "every reply sent");
      assertThat(st.maxConnectionUnsentReplyBytes())
          .isLessThanOrEqualTo(limits.replyBytesPerConnection());
      assertThat(st.readingPaused()).isZero();
    }
  }

  @Test
  void aSlowClientThatLeavesGivesItsReplyRoomBackAndItsScansAreNotAnswered() throws Exception {
    FeedLimits limits = FeedLimits.defaults().withReplyBytes(64 << 10, 64 << 10);
    int requests = 100;
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits)) {
      List<String> keys = load(ds, 1000);
      try (Socket slow = slowClient(server.port())) {
        for (int i = 0; i < requests; i++) {
          slow.getOutputStream().write("{\"op\":\"scan\",\"key\":\"a\",\"count\":100000}\n"
              .getBytes(StandardCharsets.UTF_8));
        }
        slow.getOutputStream().flush();
        await(server, x -> x.waitingForReplyRoom() == 1 && x.unsentReplyBytes() > 0,
            "the slow client's connection holds its reply room");
      }
      // Its unsent replies are given back, so the whole budget (one connection's worth here)
      // serves the next client, and the scans left are skipped rather than read for nobody.
      FeedStats.Snapshot st = await(server, x -> x.waitingLines() == 0
          && x.waitingForReplyRoom() == 0 && x.unsentReplyBytes() == 0, "the server is idle");
      assertThat(st.reads()).isLessThan(requests);
      try (Socket next = new Socket("127.0.0.1", server.port())) {
        next.getOutputStream().write("{\"op\":\"scan\",\"key\":\"a\",\"count\":100000}\n"
            .getBytes(StandardCharsets.UTF_8));
        next.getOutputStream().flush();
        List<String> got = new ArrayList<>();
        JSON.readTree(reader(next).readLine()).get("records").forEach(n -> got.add(n.get("key")
            .asText()));
        assertThat(got).isEqualTo(keys);
      }
    }
  }

  @Test
  void allConnectionsTogetherHoldAtMostTheTotalReplyBound() throws Exception {
    // Two connections at most: half the total is theirs (96 KiB each), the other half shared,
    // so the two of them can fill the total.
    FeedLimits limits = FeedLimits.defaults().withReplyBytes(256 << 10, 384 << 10)
        .withMaxConnections(2);
    int requests = 100;
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits);
        Socket a = slowClient(server.port());
        Socket b = slowClient(server.port())) {
      List<String> keys = load(ds, 1000);
      byte[] scan = "{\"op\":\"scan\",\"key\":\"a\",\"count\":100000}\n"
          .getBytes(StandardCharsets.UTF_8);
      for (Socket s : List.of(a, b)) {
        for (int i = 0; i < requests; i++) {
          s.getOutputStream().write(scan);
        }
        s.getOutputStream().flush();
      }
      long full = limits.replyBytesTotal() - limits.replyChunkBytes();
      FeedStats.Snapshot st = await(server, x -> (x.maxUnsentReplyBytes() > full
          && x.waitingForReplyRoom() == 2) || x.reads() == 2 * requests,
          "both connections wait for reply room");
      System.out.println("two clients never reading: " + st);
      assertThat(st.maxUnsentReplyBytes()).as("all connections' reply buffers, at most")
          .isLessThanOrEqualTo(limits.replyBytesTotal());
      assertThat(st.maxConnectionUnsentReplyBytes()).as("one connection's, at most")
          .isLessThanOrEqualTo(limits.replyBytesPerConnection());
      assertThat(st.reads()).as("scans answered in full").isLessThan(2 * requests);
      for (Socket s : List.of(a, b)) {
        BufferedReader in = reader(s);
        for (int i = 0; i < requests; i++) {
          JsonNode reply = JSON.readTree(in.readLine());
          List<String> got = new ArrayList<>();
          reply.get("records").forEach(n -> got.add(n.get("key").asText()));
          assertThat(got).isEqualTo(keys);
        }
      }
      st = await(server, x -> x.unsentReplyBytes() == 0 && x.reads() == 2 * requests,
          "every reply sent");
      assertThat(st.maxUnsentReplyBytes()).isLessThanOrEqualTo(limits.replyBytesTotal());
    }
  }

  @Test
  void textThatIsNotUnicodeIsRejectedPerLineAndExoticKeysComeBackByteForByte() throws Exception {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      BufferedReader in = reader(s);
      java.io.ByteArrayOutputStream lines = new java.io.ByteArrayOutputStream();
      for (String l : List.of(
          "{\"key\":\"\\ud800\",\"ack\":true}", // the line
          "{\"key\":\"k2\",\"fields\":{\"f\\ud800\":\"a\"},\"ack\":true}",
          "{\"key\":\"k3\",\"fields\":{\"field1\":\"a\\udfff\"},\"ack\":true}",
          "{\"op\":\"get\",\"key\":\"\\udc00\"}",
          "{\"op\":\"scan\",\"key\":\"x\\ud800\",\"count\":5}",
          "{\"op\":\"delete\",\"key\":\"\\ud800\",\"ack\":true}")) {
        lines.write(l.getBytes(StandardCharsets.UTF_8));
        lines.write('\n');
      }
      lines.write("{\"key\":\"k7\u00ff\",\"ack\":true}\n".getBytes(StandardCharsets.ISO_8859_1));
      lines.write("{\"key\":\"k8\",\"ack\":true}\n".getBytes(StandardCharsets.UTF_8));
      out.write(lines.toByteArray());
      out.flush();
      List<JsonNode> replies = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        replies.add(JSON.readTree(in.readLine()));
      }
      for (int i = 0; i < 7; i++) {
        assertThat(replies.get(i).get("ok").asBoolean()).as("line %d", i + 1).isFalse();
        assertThat(replies.get(i).get("line").asInt()).isEqualTo(i + 1);
      }
      assertThat(replies.get(0).get("reason").asText()).startsWith(
          "key is not valid Unicode text: lone surrogate U+D800 at index 0;");
      assertThat(replies.get(1).get("reason").asText()).contains("surrogate");
      assertThat(replies.get(2).get("reason").asText()).startsWith(
          "value of field 'field1' is not valid Unicode text: lone surrogate U+DFFF at index 1;");
      assertThat(replies.get(3).get("reason").asText()).contains("lone surrogate U+DC00");
      assertThat(replies.get(4).get("reason").asText()).contains("lone surrogate U+D800");
      assertThat(replies.get(5).get("reason").asText()).contains("lone surrogate U+D800");
      assertThat(replies.get(6).get("reason").asText()).startsWith(
          "line is not valid UTF-8: malformed byte 0xFF at byte 10;");
      assertThat(replies.get(7).toString()).isEqualTo("{\"ok\":true,\"line\":8}");
      // Nothing landed for the rejected lines: not under '?', not under any key.
      assertThat(ds.scan(null, 100)).extracting(DatasetRecord::key).containsExactly("k8");
      // Keys a lenient conversion would change, through the feed and back.
      List<String> exotic = List.of("\ud83d\ude00", "\udbff\udfff", "\u0000", "a\u0000b",
          "e\u0301", "\u00e9", "\ufffd", "?");
      StringBuilder req = new StringBuilder();
      for (String k : exotic) {
        req.append(JSON.writeValueAsString(Map.of("key", k, "ack", true, "fields",
            Map.of("field1", "v" + k)))).append('\n');
      }
      for (String k : exotic) {
        req.append(JSON.writeValueAsString(Map.of("op", "get", "key", k))).append('\n');
      }
      req.append("{\"op\":\"scan\",\"key\":\"\\u0000\",\"count\":100}\n");
      out.write(req.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      for (int i = 0; i < exotic.size(); i++) {
        assertThat(JSON.readTree(in.readLine()).get("ok").asBoolean()).isTrue();
      }
      for (String k : exotic) {
        JsonNode rec = JSON.readTree(in.readLine()).get("record");
        assertThat(rec.get("key").asText().codePoints().toArray())
            .isEqualTo(k.codePoints().toArray());
        assertThat(rec.get("fields").get("field1").asText()).isEqualTo("v" + k);
        assertThat(ds.queryEq("by_field1", "v" + k)).extracting(DatasetRecord::key)
            .containsExactly(k);
      }
      List<String> scanned = new ArrayList<>();
      JSON.readTree(in.readLine()).get("records").forEach(n -> scanned.add(n.get("key")
          .asText()));
      List<String> expected = new ArrayList<>(exotic);
      expected.add("k8");
      expected.sort((x, y) -> java.util.Arrays.compareUnsigned(x.getBytes(
          StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
      assertThat(scanned).isEqualTo(expected);
    }
  }

  /** A client socket with a small, fixed receive buffer: the kernel holds little for it. */
  private static Socket slowClient(int port) throws Exception {
    Socket s = new Socket();
    s.setReceiveBufferSize(16 << 10);
    s.connect(new InetSocketAddress("127.0.0.1", port));
    return s;
  }

  private static BufferedReader reader(Socket s) throws Exception {
    return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8
        .newDecoder().onMalformedInput(CodingErrorAction.REPORT)));
  }

  /** Loads records k0000.. with 100-byte pads; returns their keys in order. */
  private static List<String> load(Dataset ds, int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String k = String.format("k%04d", i);
      ds.upsert(k, Map.of("field1", "v" + (i % 10), "pad", "p".repeat(100)));
      keys.add(k);
    }
    return keys;
  }

  /**
   * Waits until the server's stats satisfy {@code done}, polling them: a bounded loop (at most a
   * minute), never a timing assertion. Fails naming what did not happen.
   */
  private static FeedStats.Snapshot await(FeedServer server,
      java.util.function.Predicate<FeedStats.Snapshot> done, String what) throws Exception {
    for (int i = 0; i < 6000; i++) {
      FeedStats.Snapshot st = server.stats();
      if (done.test(st)) {
        return st;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("gave up waiting: " + what + "; stats " + server.stats());
  }

  /** {"op":"stats"}: the feed's counters and every tree's statistics, while the server holds it. */
  @Test
  void statsRequestAnswersWithFeedCountersAndTreeStatistics() throws Exception {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
          StandardCharsets.UTF_8));
      String lines = String.join("\n",
          "{\"key\":\"k1\",\"fields\":{\"field1\":\"a\"}}",
          "{\"key\":\"k2\",\"fields\":{\"field1\":\"b\"}}",
          "{\"op\":\"delete\",\"key\":\"k1\",\"ack\":true}",
          "{\"op\":\"stats\"}",
          "{\"op\":\"stats\",\"key\":\"k1\"}") + "\n";
      out.write(lines.getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertThat(JSON.readTree(in.readLine()).get("ok").asBoolean()).isTrue();
      JsonNode stats = JSON.readTree(in.readLine());
      assertThat(stats.get("ok").asBoolean()).isTrue();
      assertThat(stats.at("/feed/upserts").asLong()).isEqualTo(2);
      assertThat(stats.at("/feed/deletes").asLong()).isEqualTo(1);
      assertThat(stats.at("/feed/applied").asLong()).isEqualTo(3);
      assertThat(stats.at("/feed/lines").asLong()).isGreaterThanOrEqualTo(4);
      assertThat(stats.at("/feed/connections").asLong()).isEqualTo(1);
      assertThat(stats.at("/dataset/partitions").asInt()).isEqualTo(1);
      JsonNode primary = stats.at("/dataset/trees/p0~1primary");
      assertThat(primary.isObject()).as(stats.toString()).isTrue();
      assertThat(primary.get("entries").asLong())
          .as("k2, and k1's anti-matter, which replaced k1 in the memory component").isEqualTo(2);
      assertThat(stats.at("/dataset/trees/p0~1by_field1").isObject()).isTrue();
      JsonNode refused = JSON.readTree(in.readLine());
      assertThat(refused.get("ok").asBoolean()).isFalse();
      assertThat(refused.get("reason").asText()).contains("{\"op\":\"stats\"} alone");
    }
  }

  /**
   * --format asterixdb: plain records keyed by a field, values of every JSON type stored and read
   * back as they were sent, bad lines counted, and nothing sent back to the client.
   */
  @Test
  void asterixDbStylePlainRecordsAreStoredFaithfullyAndNothingIsSentBack() throws Exception {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(1 << 20, 0))) {
      try (FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, FeedLimits.defaults(),
              FeedFormat.asterixdb("id"));
          Socket s = new Socket("127.0.0.1", server.port())) {
        String lines = String.join("\n",
            "{\"id\":\"t1\",\"text\":\"hello\"}",
            "{\"key\":\"k2\",\"fields\":{\"field1\":\"a\"}}",
            "{\"id\":2,\"n\":5,\"field1\":\"b\",\"tags\":[\"x\",1.5],\"ok\":false}")
            + "\n";
        s.getOutputStream().write(lines.getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
        // Bounded wait for the three lines to be taken (applied or rejected).
        for (int i = 0; i < 2000 && server.stats().applied() + server.stats().rejected() < 3;
            i++) {
          Thread.sleep(5);
        }
        assertThat(server.stats().applied()).isEqualTo(2);
        assertThat(server.stats().rejected()).isEqualTo(1);
        s.shutdownOutput();
        assertThat(s.getInputStream().read()).as("the server sent nothing back").isEqualTo(-1);
      }
      assertThat(plain(ds.get("t1").orElseThrow()))
          .isEqualTo(JSON.readTree("{\"id\":\"t1\",\"text\":\"hello\"}"));
      assertThat(plain(ds.get("2").orElseThrow())).isEqualTo(JSON.readTree(
          "{\"id\":2,\"n\":5,\"field1\":\"b\",\"tags\":[\"x\",1.5],\"ok\":false}"));
      assertThat(ds.queryEq("by_field1", "b")).extracting(r -> r.key()).containsExactly("2");
      assertThat(ds.get("k2")).isEmpty();
    }
  }

  /** The stored record's fields as the JSON the client sent. */
  private static JsonNode plain(org.strata.lsm.dataset.DatasetRecord r) throws Exception {
    return JSON.readTree(org.strata.lsm.dataset.PlainRecords.fieldsJson(r).toString());
  }
}
