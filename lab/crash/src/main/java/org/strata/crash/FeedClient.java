package org.strata.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The feed client of a {@code feed} crash run: sends operation after operation of the workload to
 * the child's feed server, each line with {@code "ack": true}, and waits for its {@code
 * {"ok":true}} reply before the next; a reply is the acknowledgement. Ends when the connection
 * does (the child was killed) or a reply is not ok (then {@link #failure()} says so).
 */
final class FeedClient {
  /** Receives each acknowledgement: sequence number and epoch milliseconds of its reply. */
  interface Acks {
    void acked(long seq, long millis);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Thread thread;
  private volatile String failure;

  private FeedClient(int port, CrashWorkload w, long start, Acks acks) {
    this.thread = new Thread(() -> run(port, w, start, acks), "crash-feed-client");
    thread.setDaemon(true);
  }

  static FeedClient start(int port, CrashWorkload w, long start, Acks acks) {
    FeedClient c = new FeedClient(port, w, start, acks);
    c.thread.start();
    return c;
  }

  private void run(int port, CrashWorkload w, long start, Acks acks) {
    try (Socket s = connect(port);
        OutputStream out = s.getOutputStream();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
            StandardCharsets.UTF_8))) {
      for (long seq = start; ; seq++) {
        ObjectNode line = JSON.createObjectNode();
        line.put("op", w.isDelete(seq) ? "delete" : "upsert");
        line.put("key", w.key(seq));
        if (!w.isDelete(seq)) {
          ObjectNode fields = line.putObject("fields");
          for (Map.Entry<String, String> f : w.fields(seq).entrySet()) {
            fields.put(f.getKey(), f.getValue());
          }
        }
        line.put("ack", true);
        out.write(JSON.writeValueAsBytes(line));
        out.write('\n');
        out.flush();
        String reply = in.readLine();
        if (reply == null) {
          return; // the server died
        }
        JsonNode r = JSON.readTree(reply);
        if (!r.path("ok").asBoolean(false)) {
          failure = "operation " + seq + " refused by the feed server: " + reply;
          return;
        }
        acks.acked(seq, System.currentTimeMillis());
      }
    } catch (IOException e) {
      // the server was killed
    }
  }

  /** A connection without Nagle's delay: each line is one small write waiting for its reply. */
  private static Socket connect(int port) throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
    s.setTcpNoDelay(true);
    return s;
  }

  /** Waits for the client to end (the connection closed when the child died). */
  void awaitEnd() throws InterruptedException {
    thread.join(60_000);
  }

  /** A refused operation, or null. */
  String failure() {
    return failure;
  }
}
