package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.SecondaryMaintenance;

/**
 * Hostile clients against a real feed server on 127.0.0.1 (docs/two-phase.md, "Limits, and what
 * the server does at each"): garbage lines, a line without end, connections dropped mid-line, a
 * sender that trickles, too many connections. Every check is on data (replies, the dataset, the
 * server's counters); waits are bounded loops or socket timeouts that only guard against hangs.
 */
class HostileFeedClientsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Guards reads against a hang; never a measurement. */
  private static final int HANG_GUARD_MS = 60_000;

  @TempDir Path tmp;

  private static DatasetConfig config() {
    StoreConfig s = StoreConfig.defaults()
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withDurability(Durability.NONE).withPageCache(PageCacheConfig.of(8 << 20));
    return new DatasetConfig(s, List.of(), SecondaryMaintenance.EAGER, 1);
  }

  private static String upsert(String key, String value, boolean ack) {
    return "{\"key\":\"" + key + "\",\"fields\":{\"v\":\"" + value + "\"}"
        + (ack ? ",\"ack\":true" : "") + "}\n";
  }

  private static Socket connect(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(HANG_GUARD_MS);
    s.setTcpNoDelay(true);
    return s;
  }

  private static BufferedReader reader(Socket s) throws IOException {
    return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
  }

  private static void send(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    s.getOutputStream().flush();
  }

  private static Optional<String> value(Dataset ds, String key) {
    return ds.get(key).map(r -> r.fields().get("v"));
  }

  /** Polls the server's counters until {@code done}: a bounded loop, never a timing assertion. */
  private static FeedStats.Snapshot await(FeedServer server, Predicate<FeedStats.Snapshot> done,
      String what) throws InterruptedException {
    for (int i = 0; i < 6000; i++) {
      FeedStats.Snapshot st = server.stats();
      if (done.test(st)) {
        return st;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("gave up waiting: " + what + "; stats " + server.stats());
  }

  /**
   * Polls until {@code done} holds and the counters stay the same for 20 polls in a row (the
   * server is quiescent): a bounded wait, never a timing assertion.
   */
  private static FeedStats.Snapshot awaitQuiet(FeedServer server,
      Predicate<FeedStats.Snapshot> done, String what) throws InterruptedException {
    FeedStats.Snapshot last = null;
    int same = 0;
    for (int i = 0; i < 3000; i++) {
      FeedStats.Snapshot st = server.stats();
      same = done.test(st) && st.equals(last) ? same + 1 : 0;
      if (same == 20) {
        return st;
      }
      last = st;
      Thread.sleep(20);
    }
    throw new AssertionError("gave up waiting: " + what + "; stats " + server.stats());
  }

  /**
   * A well-behaved client: {@code n} acknowledged upserts of {@code prefix}i, each ack read before
   * the next is sent; returns once every ack came. Checks each ack's line number.
   */
  private static void wellBehaved(int port, String prefix, int n) throws IOException {
    try (Socket s = connect(port)) {
      BufferedReader in = reader(s);
      for (int i = 0; i < n; i++) {
        send(s, upsert(prefix + i, "good" + i, true));
        assertThat(in.readLine()).as("ack of %s%d", prefix, i)
            .isEqualTo("{\"ok\":true,\"line\":" + (i + 1) + "}");
      }
    }
  }

  @Test
  void malformedJsonAndBinaryGarbageAreAnsweredAndTheLinesAfterThemApplied() throws Exception {
    long seed = System.nanoTime();
    System.out.println("HostileFeedClientsTest garbage seed " + seed);
    Random rnd = new Random(seed);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        Socket s = connect(server.port())) {
      List<byte[]> bad = new ArrayList<>();
      for (String t : List.of("{\"key\":\"a\",", "{]", "null", "[1,2]", "\"just a string\"",
          "{\"key\":\"a\",\"fields\":{\"v\":\"x\"}} trailing", "{\"key\":\"a\"\u0000}",
          "{\"op\":\"upsert\",\"key\":\"a\",\"fields\":{\"v\":\"x\"}}}")) {
        bad.add(t.getBytes(StandardCharsets.UTF_8));
      }
      for (int i = 0; i < 20; i++) { // binary garbage, any byte but the newline
        byte[] b = new byte[1 + rnd.nextInt(3000)];
        rnd.nextBytes(b);
        for (int j = 0; j < b.length; j++) {
          if (b[j] == '\n') {
            b[j] = 0;
          }
        }
        b[0] = (byte) 0xff; // never valid UTF-8 nor JSON, whatever the seed
        bad.add(b);
      }
      // Interleaved: bad line, good acknowledged line, bad line, ...
      java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
      for (int i = 0; i < bad.size(); i++) {
        all.write(bad.get(i));
        all.write('\n');
        all.write(upsert("after" + i, "v" + i, true).getBytes(StandardCharsets.UTF_8));
      }
      s.getOutputStream().write(all.toByteArray());
      s.getOutputStream().flush();
      BufferedReader in = reader(s);
      for (int i = 0; i < bad.size(); i++) {
        JsonNode rejection = JSON.readTree(in.readLine());
        assertThat(rejection.get("ok").asBoolean()).as("bad line %d", i).isFalse();
        assertThat(rejection.get("line").asLong()).isEqualTo(2L * i + 1);
        assertThat(rejection.get("reason").asText()).as("reason of bad line %d", i)
            .containsAnyOf("not valid JSON", "is not valid UTF-8", "expected a JSON object");
        assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":" + (2L * i + 2) + "}");
      }
      for (int i = 0; i < bad.size(); i++) {
        assertThat(value(ds, "after" + i)).contains("v" + i);
      }
      assertThat(ds.get("a")).as("nothing of a bad line is applied").isEmpty();
      FeedStats.Snapshot st = server.stats();
      assertThat(st.rejected()).isEqualTo(bad.size());
      assertThat(st.upserts()).isEqualTo(bad.size());
      wellBehaved(server.port(), "later", 5); // the server is unharmed
    }
  }

  @Test
  void aTwentyMegabyteLineWithoutNewlineIsAnsweredAndItsConnectionClosed() throws Exception {
    FeedLimits limits = FeedLimits.defaults();
    int huge = 20_000_000;
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits);
        Socket s = connect(server.port())) {
      ExecutorService sender = Executors.newSingleThreadExecutor();
      Future<Long> sent = sender.submit(() -> {
        long n = 0;
        try {
          OutputStream out = s.getOutputStream();
          out.write((upsert("before0", "b0", true) + upsert("before1", "b1", true))
              .getBytes(StandardCharsets.UTF_8));
          byte[] block = new byte[1 << 16];
          java.util.Arrays.fill(block, (byte) 'x');
          block[0] = '{';
          for (; n < huge; n += block.length) {
            out.write(block);
            block[0] = 'x';
          }
          // Never read: the connection is closed at the long line.
          out.write(("\n" + upsert("after", "a", true)).getBytes(StandardCharsets.UTF_8));
          out.flush();
        } catch (IOException e) {
          // the server closed the connection, as it should
        }
        return n;
      });
      BufferedReader in = reader(s);
      assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":1}");
      assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":2}");
      JsonNode rejection = JSON.readTree(in.readLine());
      assertThat(rejection.get("ok").asBoolean()).isFalse();
      assertThat(rejection.get("line").asInt()).isEqualTo(3);
      assertThat(rejection.get("reason").asText()).isEqualTo("line longer than "
          + limits.maxLineBytes() + " bytes; the connection is closed");
      assertThat(in.readLine()).as("the server closes the connection after its answer").isNull();
      sent.get(HANG_GUARD_MS, TimeUnit.MILLISECONDS);
      sender.shutdown();
      s.close(); // the server lingers, discarding, until the client goes
      FeedStats.Snapshot st = await(server, x -> x.openConnections() == 0, "the connection gone");
      assertThat(st.closedForLongLines()).isEqualTo(1);
      assertThat(st.maxWaitingBytes()).as("the long line is never held as a line")
          .isLessThan(1000);
      assertThat(value(ds, "before0")).contains("b0");
      assertThat(value(ds, "before1")).contains("b1");
      assertThat(ds.get("after")).as("nothing after the long line is applied").isEmpty();
      wellBehaved(server.port(), "later", 5); // the server is unharmed
    }
  }

  @Test
  void twoHundredConnectionsClosingMidLineNeverApplyAPartialLine() throws Exception {
    long seed = System.nanoTime();
    System.out.println("HostileFeedClientsTest mid-line seed " + seed);
    Random rnd = new Random(seed);
    int connections = 200;
    int complete = 3;
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0)) {
      List<Socket> sockets = new ArrayList<>();
      boolean[] reset = new boolean[connections];
      try {
        for (int c = 0; c < connections; c++) {
          sockets.add(connect(server.port()));
        }
        await(server, x -> x.openConnections() == connections, "all connections open");
        // All open at once; each sends complete lines, then part of one and goes away, half of
        // them with a reset (SO_LINGER 0) instead of an orderly close.
        for (int c = 0; c < connections; c++) {
          StringBuilder text = new StringBuilder();
          for (int i = 0; i < complete; i++) {
            text.append(upsert("c" + c + "-" + i, "v" + i, false));
          }
          String cut = upsert("partial" + c, "never", false);
          if (rnd.nextBoolean()) {
            cut = cut.substring(0, cut.length() - 1); // a whole record, only the newline missing
          } else {
            cut = cut.substring(0, 1 + rnd.nextInt(cut.length() - 2));
          }
          text.append(cut);
          Socket s = sockets.get(c);
          reset[c] = rnd.nextBoolean();
          if (reset[c]) {
            s.setSoLinger(true, 0);
          }
          send(s, text.toString());
        }
        for (Socket s : sockets) {
          s.close();
        }
      } finally {
        for (Socket s : sockets) {
          s.close();
        }
      }
      FeedStats.Snapshot st = await(server, x -> x.connections() == connections
          && x.openConnections() == 0 && x.waitingLines() == 0, "every connection handled");
      System.out.println("200 connections closed mid-line: " + st);
      int resetLost = 0;
      for (int c = 0; c < connections; c++) {
        assertThat(ds.get("partial" + c)).as("the cut line of connection %d", c).isEmpty();
        boolean gap = false;
        for (int i = 0; i < complete; i++) {
          Optional<String> v = value(ds, "c" + c + "-" + i);
          if (!reset[c]) {
            assertThat(v).as("complete line %d of closed connection %d", i, c).contains("v" + i);
          } else if (v.isEmpty()) {
            gap = true; // a reset may discard what the server had not read yet
            resetLost++;
          } else {
            assertThat(gap).as("connection %d's lines apply in order", c).isFalse();
            assertThat(v).contains("v" + i);
          }
        }
      }
      System.out.println("lines lost to resets before the server read them: " + resetLost);
      assertThat(st.applied()).isEqualTo((long) connections * complete - resetLost);
      wellBehaved(server.port(), "later", 5); // and the server goes on
    }
  }

  @Test
  void aSlowSenderIsAppliedOnceItsLineIsCompleteWhileOthersAreServed() throws Exception {
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        Socket slow = connect(server.port())) {
      byte[] line = upsert("slow", "trickled", true).getBytes(StandardCharsets.UTF_8);
      OutputStream out = slow.getOutputStream();
      // A scaled-down one byte a second: every byte its own packet, 10 ms apart; the checks are
      // on data (what is applied when), not on how long anything took.
      for (int i = 0; i < line.length - 1; i++) {
        out.write(line[i]);
        out.flush();
        Thread.sleep(10);
        if (i % 16 == 0) {
          wellBehaved(server.port(), "meanwhile" + i + "-", 3); // others are served meanwhile
          assertThat(ds.get("slow")).as("the slow line after %d bytes", i + 1).isEmpty();
        }
      }
      await(server, x -> x.upserts() >= 3L * ((line.length - 2) / 16 + 1),
          "the others' upserts applied");
      assertThat(ds.get("slow")).as("all but the newline sent").isEmpty();
      out.write('\n');
      out.flush();
      assertThat(reader(slow).readLine()).isEqualTo("{\"ok\":true,\"line\":1}");
      assertThat(value(ds, "slow")).contains("trickled");
      assertThat(server.stats().rejected()).isZero();
    }
  }

  @Test
  void connectionsBeyondTheLimitAreRefusedAndTheOthersServed() throws Exception {
    FeedLimits limits = FeedLimits.defaults().withMaxConnections(3);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits)) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          held.add(connect(server.port()));
        }
        await(server, x -> x.openConnections() == 3, "three connections open");
        // Refused clients that stay connected: as many as the limit get their refusal and
        // linger; beyond that they are closed at once, so they cannot pile up.
        List<Socket> refused = new ArrayList<>();
        try {
          for (int i = 0; i < 3; i++) {
            Socket extra = connect(server.port());
            refused.add(extra);
            send(extra, upsert("refused", "x", true)); // sent before it reads the refusal
            BufferedReader in = reader(extra);
            assertThat(in.readLine()).isEqualTo("{\"ok\":false,\"reason\":\"too many"
                + " connections: the server takes at most 3 at a time; try again later\"}");
            assertThat(in.readLine()).isNull();
          }
          try (Socket extra = connect(server.port())) {
            String got;
            try {
              got = reader(extra).readLine();
            } catch (java.net.SocketException e) {
              got = null; // reset: closed without a reply, as it should be
            }
            assertThat(got).as("a refused connection beyond the lingering bound").isNull();
          }
        } finally {
          for (Socket s : refused) {
            s.close();
          }
        }
        for (int i = 0; i < 3; i++) {
          send(held.get(i), upsert("held" + i, "h", true));
          assertThat(reader(held.get(i)).readLine()).isEqualTo("{\"ok\":true,\"line\":1}");
        }
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
      await(server, x -> x.openConnections() == 0, "the held connections closed");
      wellBehaved(server.port(), "after", 3); // room again
      assertThat(ds.get("refused")).isEmpty();
      assertThat(server.stats().refusedConnections()).isEqualTo(4);
    }
  }

  /**
   * A client that half-closes its socket after sending (as {@code printf ... | nc -N} does) gets
   * the reply of every complete line it sent, then end of stream; its cut last line is not
   * applied. Many lines go in one write before the half-close, so the server sees the end of input
   * long before it has applied them.
   */
  @Test
  void aClientThatHalfClosesAfterSendingGetsEveryReplyThenEndOfStream() throws Exception {
    FeedLimits limits = FeedLimits.defaults().withMaxLineBytes(4096);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits)) {
      for (int n : new int[] {1, 300, 2000}) {
        try (Socket s = connect(server.port())) {
          StringBuilder text = new StringBuilder();
          for (int i = 0; i < n; i++) {
            text.append(upsert("half" + n + "-" + i, "h" + i, true));
          }
          text.append("{\"op\":\"get\",\"key\":\"half" + n + "-0\"}\n");
          text.append("{\"key\":\"halfcut").append(n).append("\",\"fields\":{}"); // no newline
          send(s, text.toString());
          s.shutdownOutput(); // FIN: nothing more comes, but the client still reads
          BufferedReader in = reader(s);
          for (int i = 0; i < n; i++) {
            assertThat(in.readLine()).as("ack %d of %d after the half-close", i + 1, n)
                .isEqualTo("{\"ok\":true,\"line\":" + (i + 1) + "}");
          }
          JsonNode got = JSON.readTree(in.readLine());
          assertThat(got.get("found").asBoolean()).isTrue();
          assertThat(in.readLine()).as("end of stream once every reply is sent").isNull();
        }
        for (int i = 0; i < n; i++) {
          assertThat(value(ds, "half" + n + "-" + i)).contains("h" + i);
        }
        assertThat(ds.get("halfcut" + n)).as("the cut last line").isEmpty();
      }
      // A line too long, then the half-close: the lines before it answered, its rejection, end.
      try (Socket s = connect(server.port())) {
        send(s, upsert("beforeLong0", "b", true) + upsert("beforeLong1", "b", true)
            + "x".repeat(10_000));
        s.shutdownOutput();
        BufferedReader in = reader(s);
        assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":1}");
        assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":2}");
        assertThat(in.readLine()).isEqualTo("{\"ok\":false,\"line\":3,\"reason\":\"line longer"
            + " than 4096 bytes; the connection is closed\"}");
        assertThat(in.readLine()).isNull();
      }
      FeedStats.Snapshot st = await(server, x -> x.openConnections() == 0,
          "the half-closed connections closed");
      assertThat(st.inputClosed()).isEqualTo(3);
      assertThat(st.bufferedBytes()).isZero();
      wellBehaved(server.port(), "later", 3);
    }
  }

  /**
   * Many connections each holding an unfinished line under the line limit, together far more
   * than the server's total for request lines: it holds at most that total (three slots of one
   * line beyond every connection's own 32 KiB here), the connections that get no room are not
   * read, a well-behaved client is served meanwhile, and once the lines end every connection gets
   * its answers in turn.
   */
  @Test
  void unfinishedLinesOfManyConnectionsStayWithinTheTotalAndAllEndAfterwards() throws Exception {
    int maxLine = 64 << 10;
    int connections = 40;
    int slots = 3;
    FeedLimits limits = FeedLimits.defaults().withMaxLineBytes(maxLine).withMaxConnections(64);
    limits = limits.withMaxBufferedBytes(64L * FeedLimits.INPUT_SHARE_BYTES
        + slots * ((long) maxLine + FeedLimits.READ_BYTES));
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits)) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int c = 0; c < connections; c++) {
          Socket s = connect(server.port());
          held.add(s);
          send(s, "z".repeat(60_000)); // within the socket buffers: never blocks
        }
        FeedStats.Snapshot st = await(server,
            x -> x.waitingForBufferRoom() == connections - slots,
            "all but three connections wait for room");
        System.out.println("unfinished lines: " + st);
        assertThat(st.bufferedBytes()).isLessThanOrEqualTo(limits.maxBufferedBytes());
        assertThat(st.bufferedBytes()).as("three whole lines held")
            .isGreaterThanOrEqualTo(slots * 60_000L);
        wellBehaved(server.port(), "meanwhile", 50); // short lines: its own room
        for (int c = 0; c < connections; c++) {
          send(held.get(c), "\n" + upsert("long" + c, "l" + c, true));
        }
        for (int c = 0; c < connections; c++) {
          BufferedReader in = reader(held.get(c));
          assertThat(in.readLine()).as("connection %d's line, ended", c)
              .startsWith("{\"ok\":false,\"line\":1,\"reason\":\"not valid JSON");
          assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":2}");
        }
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
      FeedStats.Snapshot st = await(server, x -> x.openConnections() == 0
          && x.bufferedBytes() == 0, "every connection gone, its room given back");
      assertThat(st.peakBufferedBytes()).isLessThanOrEqualTo(limits.maxBufferedBytes());
      assertThat(st.maxWaitingBytes()).isLessThanOrEqualTo(maxLine + 100);
      for (int c = 0; c < connections; c++) {
        assertThat(value(ds, "long" + c)).contains("l" + c);
      }
    }
  }

  /**
   * More clients that never read than the total reply bound has room for (12 x 64 KiB wanted,
   * 256 KiB in all): a well-behaved client still gets every reply, large ones included (a get of
   * a 20 KB record, scans, stats), because part of the total is each connection's own.
   */
  @Test
  void nonReadersBeyondTheTotalReplyBoundCannotStarveAWellBehavedClient() throws Exception {
    FeedLimits limits = FeedLimits.defaults().withReplyBytes(64 << 10, 256 << 10);
    int nonReaders = 12;
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits)) {
      for (int i = 0; i < 1000; i++) {
        ds.upsert(String.format("k%04d", i), Map.of("v", "p".repeat(100)));
      }
      ds.upsert("big", Map.of("v", "b".repeat(20_000)));
      List<Socket> hostile = new ArrayList<>();
      try {
        byte[] scans = "{\"op\":\"scan\",\"key\":\"k\",\"count\":100000}\n".repeat(200)
            .getBytes(StandardCharsets.UTF_8);
        for (int t = 0; t < nonReaders; t++) {
          Socket s = new Socket();
          s.setReceiveBufferSize(16 << 10);
          s.connect(new InetSocketAddress("127.0.0.1", server.port()));
          s.getOutputStream().write(scans); // 7.6 KB: taken by the socket buffers at once
          s.getOutputStream().flush();
          hostile.add(s);
        }
        // Until nothing moves: the kernel's socket buffers of every non-reader are full, so all
        // the reply room they can take is taken.
        FeedStats.Snapshot st = awaitQuiet(server, x -> x.waitingForReplyRoom() == nonReaders,
            "every non-reader waits for reply room");
        System.out.println("non-readers in place: " + st);
        try (Socket s = connect(server.port())) {
          BufferedReader in = reader(s);
          long line = 0;
          for (int i = 0; i < 50; i++) {
            send(s, upsert("served" + i, "s" + i, true));
            assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":" + ++line + "}");
          }
          for (int i = 0; i < 5; i++) {
            send(s, "{\"op\":\"get\",\"key\":\"big\"}\n");
            line++;
            JsonNode got = JSON.readTree(in.readLine());
            assertThat(got.get("record").get("fields").get("v").asText()).hasSize(20_000);
          }
          for (int i = 0; i < 3; i++) {
            send(s, "{\"op\":\"scan\",\"key\":\"k\",\"count\":300}\n");
            line++;
            assertThat(JSON.readTree(in.readLine()).get("records").size()).isEqualTo(300);
          }
          send(s, "{\"op\":\"stats\"}\n");
          assertThat(JSON.readTree(in.readLine()).get("feed").get("waitingForReplyRoom").asLong())
              .isEqualTo(nonReaders);
        }
        st = server.stats();
        System.out.println("non-readers after the well-behaved client: " + st);
        assertThat(st.maxUnsentReplyBytes()).isLessThanOrEqualTo(limits.replyBytesTotal());
        assertThat(st.maxConnectionUnsentReplyBytes())
            .isLessThanOrEqualTo(limits.replyBytesPerConnection());
        for (int i = 0; i < 50; i++) {
          assertThat(value(ds, "served" + i)).contains("s" + i);
        }
      } finally {
        for (Socket s : hostile) {
          s.close();
        }
      }
      await(server, x -> x.openConnections() == 0 && x.unsentReplyBytes() == 0,
          "the non-readers' room given back");
    }
  }

  /**
   * Everything hostile at once, with a well-behaved client the whole time: it gets every ack and
   * its records are in the dataset; the server's buffers stay within their bounds.
   */
  @Test
  void aWellBehavedClientIsServedThroughoutAHostileMix() throws Exception {
    FeedLimits limits = FeedLimits.defaults().withMaxLineBytes(1 << 20)
        .withReplyBytes(64 << 10, 256 << 10);
    try (Dataset ds = Dataset.open(tmp.resolve("ds"), config());
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0, limits)) {
      for (int i = 0; i < 1000; i++) {
        ds.upsert(String.format("k%04d", i), Map.of("v", "p".repeat(100)));
      }
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newCachedThreadPool();
      List<Future<?>> hostile = new ArrayList<>();
      List<Socket> nonReaders = new ArrayList<>();
      for (int t = 0; t < 4; t++) { // never read their replies
        Socket s = new Socket();
        s.setReceiveBufferSize(16 << 10);
        s.connect(new InetSocketAddress("127.0.0.1", server.port()));
        nonReaders.add(s);
        hostile.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < 200; i++) {
            send(s, "{\"op\":\"scan\",\"key\":\"k\",\"count\":100000}\n");
          }
          return null;
        }));
      }
      for (int t = 0; t < 2; t++) { // lines longer than the limit
        int n = t;
        hostile.add(pool.submit(() -> {
          go.await();
          try (Socket s = connect(server.port())) {
            byte[] block = new byte[1 << 16];
            java.util.Arrays.fill(block, (byte) 'y');
            for (int i = 0; i < 64; i++) {
              s.getOutputStream().write(block);
            }
          } catch (IOException e) {
            // closed by the server
          }
          return n;
        }));
      }
      hostile.add(pool.submit(() -> { // garbage and connections dropped mid-line
        go.await();
        Random rnd = new Random(7);
        for (int i = 0; i < 50; i++) {
          try (Socket s = connect(server.port())) {
            byte[] b = new byte[200];
            rnd.nextBytes(b);
            s.getOutputStream().write(b);
            s.getOutputStream().write("\n{\"key\":\"cut".getBytes(StandardCharsets.UTF_8));
          }
        }
        return null;
      }));
      go.countDown();
      wellBehaved(server.port(), "good", 300);
      for (Future<?> f : hostile) {
        f.get(HANG_GUARD_MS, TimeUnit.MILLISECONDS);
      }
      for (int i = 0; i < 300; i++) {
        assertThat(value(ds, "good" + i)).contains("good" + i);
      }
      assertThat(ds.get("cut")).isEmpty();
      FeedStats.Snapshot st = await(server, x -> x.closedForLongLines() == 2,
          "both long lines refused");
      System.out.println("hostile mix: " + st);
      assertThat(st.maxUnsentReplyBytes()).isLessThanOrEqualTo(limits.replyBytesTotal());
      assertThat(st.maxConnectionUnsentReplyBytes())
          .isLessThanOrEqualTo(limits.replyBytesPerConnection());
      assertThat(st.maxWaitingBytes()).isLessThanOrEqualTo(limits.waitingLineBytes());
      for (Socket s : nonReaders) {
        s.close();
      }
      pool.shutdownNow();
      await(server, x -> x.openConnections() == 0 && x.unsentReplyBytes() == 0,
          "the non-readers' room given back");
    }
  }
}
