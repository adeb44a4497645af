package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.dataset.Dataset;

/**
 * {@code strata feed-server} in a real child process under hostile clients (docs/two-phase.md,
 * "Limits"): its resident memory (VmRSS of /proc/PID/status) grows by no more than a bound
 * derived from its limits while lines without end, clients that never read, connections dropped
 * mid-line, garbage and a trickling sender all hit it at once; a well-behaved client gets every
 * ack meanwhile; then SIGTERM stops it and every acknowledged record is in the reopened dataset
 * (durability {@code none}: only the clean stop puts them on disk). Checks are on data; waits are
 * bounded loops that only guard against hangs.
 */
class FeedServerHostileProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int HANG_GUARD_MS = 60_000;
  private static final int MAX_LINE = 1 << 20; // --max-line-bytes of the child
  private static final long REPLY_PER_CONNECTION = 1 << 20; // the default reply bound
  private static final long REPLY_TOTAL = 64 << 20; // the default bound of all connections
  private static final int LONG_LINES = 8; // connections sending 20 MB without a newline
  private static final int NON_READERS = 70; // more than 64 x 1 MiB fit the 64 MiB reply bound
  private static final int MID_LINE = 200;

  @TempDir Path tmp;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  private static long rssKb(long pid) throws IOException {
    for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException("no VmRSS in /proc/" + pid + "/status");
  }

  private static Socket connect(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(HANG_GUARD_MS);
    s.setTcpNoDelay(true);
    return s;
  }

  private static void send(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    s.getOutputStream().flush();
  }

  private static String upsert(String key, String value, boolean ack) {
    return "{\"key\":\"" + key + "\",\"fields\":{\"v\":\"" + value + "\"}"
        + (ack ? ",\"ack\":true" : "") + "}\n";
  }

  /** A well-behaved connection: acked upserts, each ack awaited, and stats requests. */
  private static final class Good implements AutoCloseable {
    private final Socket s;
    private final BufferedReader in;
    private long line;
    final Map<String, String> acked = new ConcurrentHashMap<>();

    Good(int port) throws IOException {
      s = connect(port);
      in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
    }

    void upsert(String key, String value) throws IOException {
      send(s, FeedServerHostileProcessTest.upsert(key, value, true));
      line++;
      assertThat(in.readLine()).as("ack of %s", key).isEqualTo("{\"ok\":true,\"line\":" + line
          + "}");
      acked.put(key, value);
    }

    /** A scan from {@code from}; returns how many records came. */
    int scan(String from) throws IOException {
      send(s, "{\"op\":\"scan\",\"key\":\"" + from + "\",\"count\":100000}\n");
      line++;
      JsonNode reply = JSON.readTree(in.readLine());
      assertThat(reply.get("ok").asBoolean()).as("scan reply %s", reply).isTrue();
      return reply.get("records").size();
    }

    JsonNode stats() throws IOException {
      send(s, "{\"op\":\"stats\"}\n");
      line++;
      return JSON.readTree(in.readLine()).get("feed");
    }

    /** Polls the server's counters until {@code done} (bounded; never a timing assertion). */
    JsonNode await(Predicate<JsonNode> done, String what) throws Exception {
      JsonNode st = null;
      for (int i = 0; i < 3000; i++) {
        st = stats();
        if (done.test(st)) {
          return st;
        }
        Thread.sleep(20);
      }
      throw new AssertionError("gave up waiting: " + what + "; stats " + st);
    }

    @Override
    public void close() throws IOException {
      s.close();
    }
  }

  /** Starts {@code strata feed-server} in a child JVM with a fixed, pre-touched heap. */
  private Process startChild(Path dir, Path config, Path stdout, Path stderr, String heap,
      String maxDirect) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-Xms" + heap, "-Xmx" + heap, "-XX:+AlwaysPreTouch",
        "-XX:+UseSerialGC", "-XX:MaxDirectMemorySize=" + maxDirect,
        "-Dstrata.log.file=" + tmp.resolve("child.log"),
        "-cp", classPath(), Main.class.getName(), "feed-server", "--dir", dir.toString(),
        "--config", config.toString(), "--port", "0", "--stats-every", "0",
        "--max-line-bytes", Integer.toString(MAX_LINE))
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
  }

  /** Waits (bounded) for the child's {@code listening on} line; returns its port. */
  private static int awaitPort(Process p, Path stdout) throws Exception {
    String first = "";
    for (int i = 0; i < 3000 && p.isAlive() && !first.endsWith("\n"); i++) {
      first = Files.readString(stdout); // bounded wait for the first line
      Thread.sleep(20);
    }
    assertThat(first).as("the server's first line").startsWith("listening on ").endsWith("\n");
    return Integer.parseInt(first.substring(first.lastIndexOf(':') + 1).trim());
  }

  /**
   * SIGTERM, the documented way to stop the server: it stops cleanly (its {@code stopped:} line),
   * exits 0, and prints no warning of Log4j's.
   */
  private static void sigterm(Process p, Path stdout, Path stderr) throws Exception {
    p.destroy(); // SIGTERM
    assertThat(p.waitFor(HANG_GUARD_MS, TimeUnit.MILLISECONDS)).as("stopped").isTrue();
    assertThat(Files.readString(stdout)).contains(" stopped: ");
    assertThat(p.exitValue()).as("exit code after a clean stop by SIGTERM").isZero();
    assertThat(Files.readString(stderr)).doesNotContain("Log4j").doesNotContain("shutdown hook")
        .doesNotContain("OutOfMemoryError");
  }

  @Test
  void hostileClientsLeaveMemoryBoundedAndSigtermKeepsEveryAcknowledgedRecord() throws Exception {
    long seed = System.nanoTime();
    System.out.println("FeedServerHostileProcessTest seed " + seed);
    Random rnd = new Random(seed);
    Path dir = tmp.resolve("ds");
    Path config = tmp.resolve("ds.json");
    Files.writeString(config, """
        {"memory-component": {"size": "1MB", "count": 2},
         "log": {"durability": "none"}, "partitions": 1}
        """);
    Path stdout = tmp.resolve("server.out");
    Path stderr = tmp.resolve("server.err");
    // The heap is fixed and touched up front, so what RSS adds is the server's buffers (Netty's
    // direct memory), threads and code, not a heap growing into its maximum.
    Process p = startChild(dir, config, stdout, stderr, "160m", "1g");
    ExecutorService pool = Executors.newCachedThreadPool();
    try {
      int port = awaitPort(p, stdout);

      try (Good good = new Good(port)) {
        // Warm-up with well-behaved traffic: records, a reading scan client, code compiled.
        for (int i = 0; i < 500; i++) {
          good.upsert(String.format("k%05d", i), "warm" + i);
        }
        try (Socket reader = connect(port)) {
          BufferedReader in = new BufferedReader(new InputStreamReader(reader.getInputStream(),
              StandardCharsets.UTF_8));
          for (int i = 0; i < 10; i++) {
            send(reader, "{\"op\":\"scan\",\"key\":\"k\",\"count\":100000}\n");
            assertThat(JSON.readTree(in.readLine()).get("records").size()).isEqualTo(500);
          }
        }
        long before = rssKb(p.pid());

        // The hostile phase, all at once.
        List<Socket> nonReaders = new ArrayList<>();
        for (int t = 0; t < NON_READERS; t++) {
          Socket s = new Socket();
          s.setReceiveBufferSize(16 << 10);
          s.connect(new InetSocketAddress("127.0.0.1", port));
          nonReaders.add(s);
          byte[] scans = "{\"op\":\"scan\",\"key\":\"k\",\"count\":100000}\n".repeat(200)
              .getBytes(StandardCharsets.UTF_8);
          pool.submit(() -> {
            s.getOutputStream().write(scans);
            return null;
          });
        }
        // Lines without end: each sends 20 MB and no newline, then reads its answer (below).
        List<Socket> longLines = new ArrayList<>();
        List<Future<?>> longWriters = new ArrayList<>();
        for (int t = 0; t < LONG_LINES; t++) {
          Socket s = connect(port);
          longLines.add(s);
          longWriters.add(pool.submit(() -> {
            byte[] block = new byte[1 << 16];
            Arrays.fill(block, (byte) 'z');
            for (int n = 0; n < 20_000_000; n += block.length) {
              s.getOutputStream().write(block);
            }
            return null;
          }));
        }
        List<Socket> midLine = new ArrayList<>();
        for (int c = 0; c < MID_LINE; c++) {
          Socket s = connect(port);
          midLine.add(s);
          String cut = upsert("partial" + c, "never", false);
          send(s, upsert("mid" + c, "whole", false)
              + cut.substring(0, 1 + rnd.nextInt(cut.length() - 1)));
        }
        Future<?> garbage = pool.submit(() -> {
          try (Socket s = connect(port)) {
            byte[] b = new byte[100_000];
            rnd.nextBytes(b);
            s.getOutputStream().write(b);
            send(s, "\n" + upsert("afterGarbage", "g", true));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                StandardCharsets.ISO_8859_1));
            String l;
            while ((l = in.readLine()) != null && !l.startsWith("{\"ok\":true")) {
              assertThat(l).startsWith("{\"ok\":false");
            }
            assertThat(l).as("the line after the garbage is acked").startsWith("{\"ok\":true");
          }
          return null;
        });
        Socket slow = connect(port);
        byte[] slowLine = upsert("slow", "trickled", true).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < slowLine.length - 1; i++) { // all but the newline, byte by byte
          slow.getOutputStream().write(slowLine[i]);
          slow.getOutputStream().flush();
          good.upsert("during" + i, "d" + i); // served meanwhile
        }
        for (Future<?> f : longWriters) { // all 160 MB taken by the server (discarded, or not)
          f.get(HANG_GUARD_MS, TimeUnit.MILLISECONDS);
        }
        garbage.get(HANG_GUARD_MS, TimeUnit.MILLISECONDS);
        JsonNode st = good.await(x -> x.get("waitingForReplyRoom").asLong() == NON_READERS
            && x.get("openConnections").asLong() >= NON_READERS + MID_LINE + 2
            && x.get("upserts").asLong() >= 500 + MID_LINE, "the hostile clients in place");
        long during = rssKb(p.pid());
        for (int i = 0; i < 200; i++) {
          good.upsert("good" + i, "g" + i);
          if (i % 50 == 0) { // replies of 70 KB and more, while the non-readers hold theirs
            assertThat(good.scan("k")).isGreaterThanOrEqualTo(500);
          }
        }
        // The bound: each long line holds at most the limit plus one read, in a buffer of up to
        // twice that; each non-reader its reply bound; the rest (200 idle connections with a few
        // bytes each, worker threads, Netty's pooled chunks, code) a fixed allowance of 64 MiB.
        long replies = Math.min(NON_READERS * REPLY_PER_CONNECTION, REPLY_TOTAL);
        long boundKb = (LONG_LINES * 2L * (MAX_LINE + (1 << 20)) + replies) / 1024 + 64 * 1024;
        System.out.printf("feed server RSS: %d KiB before the hostile phase, %d KiB during"
            + " (+%d KiB, bound +%d KiB); stats %s%n", before, during, during - before, boundKb,
            st);
        assertThat(during - before).as("RSS growth of the server under hostile clients, KiB")
            .isLessThanOrEqualTo(boundKb);
        assertThat(st.get("maxUnsentReplyBytes").asLong())
            .isLessThanOrEqualTo(replies);
        for (Socket s : longLines) {
          assertThat(new BufferedReader(new InputStreamReader(s.getInputStream(),
              StandardCharsets.UTF_8)).readLine()).isEqualTo("{\"ok\":false,\"line\":1,"
              + "\"reason\":\"line longer than " + MAX_LINE
              + " bytes; the connection is closed\"}");
          s.close();
        }

        // Finish the slow line; close the mid-line connections and the non-readers.
        slow.getOutputStream().write('\n');
        slow.getOutputStream().flush();
        assertThat(new BufferedReader(new InputStreamReader(slow.getInputStream(),
            StandardCharsets.UTF_8)).readLine()).isEqualTo("{\"ok\":true,\"line\":1}");
        slow.close();
        for (Socket s : midLine) {
          s.close();
        }
        for (Socket s : nonReaders) {
          s.close();
        }
        st = good.await(x -> x.get("openConnections").asLong() == 1
            && x.get("unsentReplyBytes").asLong() == 0, "only the good client left");
        System.out.printf("feed server RSS after the hostile clients left: %d KiB; stats %s%n",
            rssKb(p.pid()), st);
        assertThat(st.get("closedForLongLines").asLong()).isEqualTo(LONG_LINES);

        // SIGTERM while the good client is between acks: everything acked is kept.
        for (int i = 0; i < 200; i++) {
          good.upsert("last" + i, "l" + i);
        }
        Map<String, String> acked = Map.copyOf(good.acked);
        sigterm(p, stdout, stderr);

        try (Dataset ds = Dataset.open(dir, null)) {
          for (Map.Entry<String, String> e : acked.entrySet()) {
            Optional<String> v = ds.get(e.getKey()).map(r -> r.fields().get("v"));
            assertThat(v).as("acknowledged record %s", e.getKey()).contains(e.getValue());
          }
          for (int c = 0; c < MID_LINE; c++) {
            assertThat(ds.get("partial" + c)).as("cut line %d", c).isEmpty();
            assertThat(ds.get("mid" + c).map(r -> r.fields().get("v"))).contains("whole");
          }
          assertThat(ds.get("slow").map(r -> r.fields().get("v"))).contains("trickled");
          assertThat(ds.get("afterGarbage").map(r -> r.fields().get("v"))).contains("g");
          assertThat(ds.verify().faults()).isEmpty();
        }
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(HANG_GUARD_MS, TimeUnit.MILLISECONDS);
      pool.shutdownNow();
    }
  }

  /**
   * Many connections each holding an unfinished line just under the line limit: 200 x 1,000,000
   * bytes, far more than the server's direct memory (64 MiB here) and more than its default
   * total for lines held (128 MiB). The server holds at most that total (its counters say so),
   * stops reading connections that get no room, never runs out of memory, and serves a
   * well-behaved client meanwhile; when the lines end, every connection is answered.
   */
  @Test
  void unfinishedLinesOfManyConnectionsStayWithinTheServersTotalAndExhaustNoMemory()
      throws Exception {
    int connections = 200;
    int lineBytes = 1_000_000; // under the line limit (1 MiB)
    long defaultBuffered = 128L << 20;
    Path dir = tmp.resolve("ds");
    Path config = tmp.resolve("ds.json");
    Files.writeString(config, """
        {"memory-component": {"size": "1MB", "count": 2},
         "log": {"durability": "none"}, "partitions": 1}
        """);
    Path stdout = tmp.resolve("server.out");
    Path stderr = tmp.resolve("server.err");
    Process p = startChild(dir, config, stdout, stderr, "512m", "64m");
    ExecutorService pool = Executors.newCachedThreadPool();
    try {
      int port = awaitPort(p, stdout);
      try (Good good = new Good(port)) {
        for (int i = 0; i < 200; i++) { // warm-up
          good.upsert("warm" + i, "w" + i);
        }
        long before = rssKb(p.pid());
        java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger written =
            new java.util.concurrent.atomic.AtomicInteger();
        List<Future<?>> writers = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
          int n = c;
          writers.add(pool.submit(() -> {
            try (Socket s = connect(port)) {
              byte[] block = new byte[50_000];
              Arrays.fill(block, (byte) 'z');
              try {
                for (int sent = 0; sent < lineBytes; sent += block.length) {
                  s.getOutputStream().write(block); // blocks while the server does not read
                }
              } finally {
                written.incrementAndGet();
              }
              assertThat(finish.await(HANG_GUARD_MS, TimeUnit.MILLISECONDS)).isTrue();
              send(s, "\n" + upsert("long" + n, "l" + n, true));
              BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                  StandardCharsets.UTF_8));
              String rejected = in.readLine();
              assertThat(rejected).as("connection %d's unfinished line, once ended", n)
                  .startsWith("{\"ok\":false,\"line\":1,\"reason\":\"not valid JSON");
              assertThat(in.readLine()).as("connection %d's ack", n)
                  .isEqualTo("{\"ok\":true,\"line\":2}");
            }
            return null;
          }));
        }
        // Until every writer is done or its connection waits for room (bounded polling).
        JsonNode st = good.await(x -> written.get() + x.path("waitingForBufferRoom").asLong(0)
            >= connections, "every unfinished line taken or waiting for room");
        for (int i = 0; i < 200; i++) {
          good.upsert("during" + i, "d" + i); // served meanwhile
        }
        st = good.stats();
        long during = rssKb(p.pid());
        // Lines are held on the (pre-touched) heap; what RSS adds is direct memory for reads
        // and replies, threads and code: a fixed allowance of 64 MiB.
        long boundKb = 64 * 1024;
        System.out.printf("feed server RSS with %d unfinished lines: %d KiB before, %d KiB"
            + " during (+%d KiB, bound +%d KiB); stats %s%n", connections, before, during,
            during - before, boundKb, st);
        assertThat(st.path("peakBufferedBytes").asLong(0)).as("request bytes held, at most")
            .isLessThanOrEqualTo(defaultBuffered);
        assertThat(during - before).as("RSS growth, KiB").isLessThanOrEqualTo(boundKb);
        finish.countDown();
        for (Future<?> f : writers) {
          f.get(HANG_GUARD_MS * 3L, TimeUnit.MILLISECONDS);
        }
        // Left: the good client's stats line and the room for its next read (16 KiB).
        st = good.await(x -> x.get("openConnections").asLong() == 1
            && x.path("bufferedBytes").asLong(0) <= (16 << 10) + 100,
            "the long-line connections gone, their room given back");
        System.out.println("after the unfinished lines ended: " + st);
        assertThat(st.path("peakBufferedBytes").asLong(0)).isLessThanOrEqualTo(defaultBuffered);
        Map<String, String> acked = Map.copyOf(good.acked);
        sigterm(p, stdout, stderr);
        try (Dataset ds = Dataset.open(dir, null)) {
          for (Map.Entry<String, String> e : acked.entrySet()) {
            assertThat(ds.get(e.getKey()).map(r -> r.fields().get("v"))).as(e.getKey())
                .contains(e.getValue());
          }
          for (int c = 0; c < connections; c++) {
            assertThat(ds.get("long" + c).map(r -> r.fields().get("v"))).contains("l" + c);
          }
        }
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(HANG_GUARD_MS, TimeUnit.MILLISECONDS);
      pool.shutdownNow();
    }
  }
}
