package org.strata.ycsb.asterixdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.regex.Pattern;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB binding for AsterixDB, as in Luo &amp; Carey's setup: inserts and updates go as ADM
 * records, one per line, into an AsterixDB socket feed ({@code "adapter-name": "socket_adapter"})
 * connected to the dataset; reads, scans and deletes go through the query service as SQL++.
 *
 * <p>A socket feed acknowledges nothing: a write is {@code OK} once its record is handed to the
 * socket, not when AsterixDB has stored it, so write latencies measured here are the client's
 * send times (docs/asterixdb.md says what this can and cannot show). A record that is not valid
 * Unicode text is refused before anything is sent.
 *
 * <p>Properties: {@code asterixdb.feed.host} (default {@code 127.0.0.1}), {@code
 * asterixdb.feed.port} (required), {@code asterixdb.query.host} (default: the feed host), {@code
 * asterixdb.query.port} (default 19002), {@code asterixdb.dataverse} (default {@code ycsb}),
 * {@code asterixdb.dataset} (default {@code usertable}). The dataset's primary key is a string
 * field {@code id}; YCSB's fields are string fields of the record.
 */
public class AsterixFeedBinding extends DB {
  /** Feed host property. */
  public static final String FEED_HOST = "asterixdb.feed.host";
  /** Feed port property. */
  public static final String FEED_PORT = "asterixdb.feed.port";
  /** Query service host property. */
  public static final String QUERY_HOST = "asterixdb.query.host";
  /** Query service port property. */
  public static final String QUERY_PORT = "asterixdb.query.port";
  /** Dataverse property. */
  public static final String DATAVERSE = "asterixdb.dataverse";
  /** Dataset property. */
  public static final String DATASET = "asterixdb.dataset";

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final ObjectMapper json = new ObjectMapper();
  private Socket socket;
  private BufferedWriter feed;
  private QueryService sql;
  private String dataset;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String host = p.getProperty(FEED_HOST, "127.0.0.1");
    String port = p.getProperty(FEED_PORT);
    if (port == null) {
      throw new DBException("property " + FEED_PORT + " is required: the port of the socket"
          + " feed (its \"sockets\" setting)");
    }
    String dv = p.getProperty(DATAVERSE, "ycsb");
    String ds = p.getProperty(DATASET, "usertable");
    for (String n : List.of(dv, ds)) {
      if (!NAME.matcher(n).matches()) {
        throw new DBException("'" + n + "' is not allowed as " + DATAVERSE + " or " + DATASET
            + "; allowed: letters, digits and _ (not first a digit)");
      }
    }
    dataset = "`" + dv + "`.`" + ds + "`";
    try {
      sql = new QueryService(p.getProperty(QUERY_HOST, host),
          Integer.parseInt(p.getProperty(QUERY_PORT, "19002").trim()), Duration.ofMinutes(2));
      socket = new Socket(host, Integer.parseInt(port.trim()));
      socket.setTcpNoDelay(true);
      feed = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(),
          StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)));
    } catch (IOException | NumberFormatException e) {
      throw new DBException("cannot connect to the AsterixDB socket feed at " + host + ":"
          + port + ": " + e, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (feed != null) {
        feed.flush();
      }
      if (socket != null) {
        socket.close();
      }
    } catch (IOException e) {
      throw new DBException("the socket feed connection failed at the end: " + e, e);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
      Map<String, ByteIterator> result) {
    try {
      List<JsonNode> r = sql.execute("SELECT VALUE t FROM " + dataset + " t WHERE t.id = "
          + json.writeValueAsString(key) + ";");
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copy(r.get(0), fields, result);
      return Status.OK;
    } catch (IOException e) {
      return new Status("ERROR", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      for (JsonNode rec : sql.execute("SELECT VALUE t FROM " + dataset + " t WHERE t.id >= "
          + json.writeValueAsString(startkey) + " ORDER BY t.id LIMIT " + recordcount + ";")) {
        HashMap<String, ByteIterator> m = new HashMap<>();
        copy(rec, fields, m);
        result.add(m);
      }
      return Status.OK;
    } catch (IOException e) {
      return new Status("ERROR", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.ERROR;
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return send(key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return send(key, values);
  }

  @Override
  public Status delete(String table, String key) {
    try {
      sql.execute("DELETE FROM " + dataset + " t WHERE t.id = " + json.writeValueAsString(key)
          + ";");
      return Status.OK;
    } catch (IOException e) {
      return new Status("ERROR", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.ERROR;
    }
  }

  /** The ADM text of a record: a JSON object with {@code id} and the fields (ADM reads JSON). */
  String record(String key, Map<String, ByteIterator> values) throws IOException {
    ObjectNode o = json.createObjectNode().put("id", key);
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      if (e.getKey().equals("id")) {
        throw new IOException("field name 'id' is not allowed: it is the primary key");
      }
      o.put(e.getKey(), e.getValue().toString());
    }
    return json.writeValueAsString(o);
  }

  private Status send(String key, Map<String, ByteIterator> values) {
    try {
      String line = record(key, values);
      synchronized (this) {
        feed.write(line);
        feed.write('\n');
        feed.flush();
      }
      return Status.OK;
    } catch (IOException e) {
      return new Status("ERROR", "the socket feed refused the record: " + e.getMessage());
    }
  }

  private static void copy(JsonNode rec, Set<String> fields, Map<String, ByteIterator> out) {
    for (Map.Entry<String, JsonNode> f : rec.properties()) {
      if (!f.getKey().equals("id") && (fields == null || fields.contains(f.getKey()))) {
        out.put(f.getKey(), new StringByteIterator(f.getValue().asText()));
      }
    }
  }
}
