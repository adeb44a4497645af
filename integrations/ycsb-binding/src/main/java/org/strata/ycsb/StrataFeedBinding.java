package org.strata.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.strata.lsm.Utf8;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB binding that sends every operation to a Strata feed server ({@code strata feed-server})
 * over one TCP connection per client thread: writes as feed lines with {@code "ack": true}, reads
 * and scans as {@code get} and {@code scan} requests, each answered by one reply line. An operation
 * succeeds only if the server says so; a failure is an error status with the server's reason. A
 * key, field name or value that is not valid Unicode text is refused before anything is sent
 * (error status naming it), and replies are decoded strictly.
 *
 * <p>Properties: {@code strata.feed.host} (default {@code localhost}), {@code strata.feed.port}
 * (required).
 */
public class StrataFeedBinding extends DB {
  /** Host property. */
  public static final String HOST = "strata.feed.host";
  /** Port property. */
  public static final String PORT = "strata.feed.port";

  private final ObjectMapper json = new ObjectMapper();
  private Socket socket;
  private BufferedWriter out;
  private BufferedReader in;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String host = p.getProperty(HOST, "localhost");
    String port = p.getProperty(PORT);
    if (port == null) {
      throw new DBException("property " + PORT + " is required: the feed server's port");
    }
    try {
      socket = new Socket(host, Integer.parseInt(port.trim()));
      socket.setTcpNoDelay(true);
      // Strict both ways: text that does not convert fails rather than travelling changed.
      out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(),
          StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)));
      in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
          StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)));
    } catch (IOException | NumberFormatException e) {
      throw new DBException("cannot connect to the Strata feed server at " + host + ":" + port
          + ": " + e, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (socket != null) {
        socket.close();
      }
    } catch (IOException e) {
      throw new DBException(e);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
      Map<String, ByteIterator> result) {
    Status bad = checkKey(key);
    if (bad != null) {
      return bad;
    }
    JsonNode r = call(json.createObjectNode().put("op", "get").put("key", key));
    if (r == null || !r.path("ok").asBoolean()) {
      return failed(r);
    }
    if (!r.path("found").asBoolean()) {
      return Status.NOT_FOUND;
    }
    copy(r.get("record").get("fields"), fields, result);
    return Status.OK;
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Status bad = checkKey(startkey);
    if (bad != null) {
      return bad;
    }
    JsonNode r = call(json.createObjectNode().put("op", "scan").put("key", startkey)
        .put("count", recordcount));
    if (r == null || !r.path("ok").asBoolean()) {
      return failed(r);
    }
    for (JsonNode rec : r.get("records")) {
      HashMap<String, ByteIterator> m = new HashMap<>();
      copy(rec.get("fields"), fields, m);
      result.add(m);
    }
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return write("upsert", key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return write("upsert", key, values);
  }

  @Override
  public Status delete(String table, String key) {
    return write("delete", key, null);
  }

  private Status write(String op, String key, Map<String, ByteIterator> values) {
    ObjectNode o = json.createObjectNode().put("op", op).put("key", key);
    try {
      Utf8.check(key, "key");
      if (values != null) {
        ObjectNode f = o.putObject("fields");
        YcsbFields.toStrings(values).forEach(f::put);
      }
    } catch (IllegalArgumentException e) {
      return refused(e);
    }
    o.put("ack", true);
    JsonNode r = call(o);
    return r != null && r.path("ok").asBoolean() ? Status.OK : failed(r);
  }

  /** Null if {@code key} can be sent unchanged, else the error status saying why not. */
  private static Status checkKey(String key) {
    try {
      Utf8.check(key, "key");
      return null;
    } catch (IllegalArgumentException e) {
      return refused(e);
    }
  }

  private static Status refused(IllegalArgumentException e) {
    System.err.println("strata feed: not sent: " + e.getMessage());
    return new Status("ERROR", e.getMessage());
  }

  /** The error status of a failed call: the server's reason, or the failure already printed. */
  private static Status failed(JsonNode reply) {
    return reply == null ? Status.ERROR : new Status("ERROR", reply.path("reason").asText(
        "the server did not say ok"));
  }

  /** Sends one request line and reads its reply; null (and a message) on any failure. */
  private JsonNode call(ObjectNode request) {
    try {
      out.write(request.toString());
      out.write('\n');
      out.flush();
      String line = in.readLine();
      if (line == null) {
        System.err.println("strata feed: the server closed the connection");
        return null;
      }
      JsonNode r = json.readTree(line);
      if (!r.path("ok").asBoolean()) {
        System.err.println("strata feed: " + r.path("reason").asText(line));
      }
      return r;
    } catch (IOException e) {
      System.err.println("strata feed: " + e);
      return null;
    }
  }

  private static void copy(JsonNode from, Set<String> fields, Map<String, ByteIterator> to) {
    from.properties().forEach(e -> {
      if (fields == null || fields.contains(e.getKey())) {
        to.put(e.getKey(), new StringByteIterator(e.getValue().asText()));
      }
    });
  }
}
