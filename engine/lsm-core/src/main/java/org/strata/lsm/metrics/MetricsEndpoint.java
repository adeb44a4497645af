package org.strata.lsm.metrics;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code GET /metrics} over HTTP: the Prometheus text exposition that {@code metrics} makes at
 * each request ({@link PrometheusExposition}); every other path is 404. The JDK's own HTTP
 * server, one thread: a scrape is one small request every few seconds. {@code feed-server} and
 * {@code strata asterixdb start} serve their metrics through it ({@code --metrics-port}).
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** The content type of the text format, version 0.0.4. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService thread;

  private MetricsEndpoint(HttpServer server, ExecutorService thread) {
    this.server = server;
    this.thread = thread;
  }

  /**
   * Listens on {@code host:port} (0 for any free port).
   *
   * @throws IOException if the address cannot be bound
   */
  public static MetricsEndpoint start(String host, int port, Supplier<String> metrics)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.createContext("/", exchange -> {
      try (exchange) {
        boolean found = exchange.getRequestURI().getPath().equals("/metrics");
        boolean get = exchange.getRequestMethod().equals("GET");
        byte[] body = (!found ? "not found: metrics are at /metrics\n"
            : !get ? "only GET\n" : metrics.get()).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
            found && get ? CONTENT_TYPE : "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(!found ? 404 : !get ? 405 : 200, body.length);
        try (OutputStream o = exchange.getResponseBody()) {
          o.write(body);
        }
      }
    });
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "strata-metrics");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(thread);
    server.start();
    return new MetricsEndpoint(server, thread);
  }

  /** The port it listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    thread.shutdownNow();
  }
}
