package org.strata.ycsb.asterixdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of AsterixDB's query service ({@code POST /query/service}, form field {@code
 * statement}): sends SQL++ and returns the results, or throws {@link QueryFailedException} with
 * the server's error messages when a statement fails.
 */
public final class QueryService {
  /** AsterixDB's default query service port. */
  public static final int DEFAULT_PORT = 19002;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI uri;
  private final HttpClient http;
  private final Duration timeout;

  /**
   * @param host the cluster controller's host
   * @param port its query service port
   * @param timeout how long one request may take
   */
  public QueryService(String host, int port, Duration timeout) {
    this.uri = URI.create("http://" + host + ":" + port + "/query/service");
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    this.timeout = timeout;
  }

  /** The service's address. */
  public URI uri() {
    return uri;
  }

  /**
   * Runs one request (one or more statements separated by {@code ;}).
   *
   * @return the results of the last statement that returns any, as JSON values
   * @throws QueryFailedException if the server reports an error
   * @throws IOException if the service cannot be reached
   */
  public List<JsonNode> execute(String statement) throws IOException, InterruptedException {
    String body = "statement=" + URLEncoder.encode(statement, StandardCharsets.UTF_8);
    HttpRequest req = HttpRequest.newBuilder(uri).timeout(timeout)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    JsonNode json;
    try {
      json = JSON.readTree(r.body());
    } catch (IOException e) {
      throw new QueryFailedException(r.statusCode(), List.of("the server answered HTTP "
          + r.statusCode() + " with no JSON: " + abbreviate(r.body())));
    }
    List<String> errors = new ArrayList<>();
    for (JsonNode e : json.path("errors")) {
      errors.add(e.path("msg").asText(e.toString()));
    }
    if (!errors.isEmpty() || r.statusCode() != 200
        || !"success".equals(json.path("status").asText("success"))) {
      if (errors.isEmpty()) {
        errors.add("status " + json.path("status").asText() + " (HTTP " + r.statusCode() + ")");
      }
      throw new QueryFailedException(r.statusCode(), errors);
    }
    List<JsonNode> out = new ArrayList<>();
    json.path("results").forEach(out::add);
    return out;
  }

  private static String abbreviate(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "...";
  }

  /** A statement the server refused or failed, with its error messages. */
  public static final class QueryFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final List<String> messages;

    QueryFailedException(int httpStatus, List<String> messages) {
      super(String.join("; ", messages));
      this.httpStatus = httpStatus;
      this.messages = List.copyOf(messages);
    }

    /** The HTTP status of the answer. */
    public int httpStatus() {
      return httpStatus;
    }

    /** The server's error messages. */
    public List<String> messages() {
      return messages;
    }
  }
}
