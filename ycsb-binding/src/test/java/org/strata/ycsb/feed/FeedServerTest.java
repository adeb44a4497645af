package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
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
    StoreConfig s = StoreConfig.defaults().withMemoryComponent(memory, 2)
        .withIo(writeRate, 1 << 20, 4096).withDurability(Durability.NONE)
        .withPageCacheSize(8 << 20);
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
          .isEqualTo("unknown op 'frob'; allowed: upsert, delete, get, scan");
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
  void aStalledDatasetStopsTheServerReadingSoTheSenderBlocksAndNothingPilesUp()
      throws Exception {
    // 64 KB/s of flush I/O and 64 KB of memory: the dataset stalls within a few hundred records.
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config(64 << 10, 64 << 10));
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSendBufferSize(64 << 10);
      String pad = "x".repeat(900);
      int total = 20_000;
      AtomicLong sent = new AtomicLong();
      Thread sender = new Thread(() -> {
        try {
          OutputStream out = s.getOutputStream();
          for (int i = 0; i < total; i++) {
            out.write(("{\"key\":\"k" + i + "\",\"fields\":{\"field1\":\"v" + (i % 10)
                + "\",\"pad\":\"" + pad + "\"}}\n").getBytes(StandardCharsets.UTF_8));
            sent.incrementAndGet();
          }
          out.flush();
        } catch (Exception ignored) {
          // closed at the end of the test
        }
      });
      sender.setDaemon(true);
      sender.start();
      Thread.sleep(3000);
      // 20,000 lines of 1 KB are 20 MB; at 64 KB/s of flushes the dataset takes a few hundred.
      assertThat(sent.get()).as("the sender is blocked by TCP flow control").isLessThan(total);
      FeedStats.Snapshot st = server.stats();
      assertThat(st.maxWaiting()).as("lines buffered on the server")
          .isLessThanOrEqualTo(FeedConnection.HIGH_WATER + 128);
      assertThat(st.applied() + FeedConnection.HIGH_WATER + 128).isGreaterThanOrEqualTo(
          st.lines());
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

  private static BufferedReader reader(Socket s) throws Exception {
    return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8
        .newDecoder().onMalformedInput(CodingErrorAction.REPORT)));
  }
}
