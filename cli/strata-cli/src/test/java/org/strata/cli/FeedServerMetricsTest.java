package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.metrics.MetricsEndpoint;

/**
 * {@code strata feed-server --metrics-port 0} in a child process: after acknowledged upserts and a
 * flush, {@code GET /metrics} on 127.0.0.1 answers the Prometheus text format with the dataset's
 * figures, another path 404; SIGTERM stops both and exits 0. The child is stopped by its process.
 */
class FeedServerMetricsTest {
  @TempDir Path tmp;

  @Test
  void metricsAreServedBesideTheFeed() throws Exception {
    Path config = tmp.resolve("ds.json");
    Files.writeString(config, """
        {"memory-component": {"size": "1MB", "count": 2},
         "log": {"durability": "none"}, "partitions": 2}
        """);
    Path stdout = tmp.resolve("server.out");
    Path stderr = tmp.resolve("server.err");
    String cp = System.getProperty("surefire.test.class.path");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx256m",
        "-Dstrata.log.file=" + tmp.resolve("child.log"),
        "-cp", cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path"),
        Main.class.getName(), "feed-server", "--dir", tmp.resolve("people").toString(),
        "--config", config.toString(), "--port", "0", "--metrics-port", "0",
        "--stats-every", "0").redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
        .start();
    try {
      String head = "";
      for (int i = 0; i < 3000 && p.isAlive() && !head.contains("/metrics\n"); i++) {
        head = Files.readString(stdout); // bounded wait for the first two lines
        Thread.sleep(20);
      }
      Matcher feed = Pattern.compile("listening on 127.0.0.1:(\\d+)").matcher(head);
      Matcher metrics = Pattern.compile("metrics at (http://127.0.0.1:\\d+/metrics)")
          .matcher(head);
      assertThat(feed.find()).as(head).isTrue();
      assertThat(metrics.find()).as(head).isTrue();
      try (Socket s = new Socket("127.0.0.1", Integer.parseInt(feed.group(1)))) {
        s.setSoTimeout(60_000);
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
            StandardCharsets.UTF_8));
        for (int i = 1; i <= 100; i++) {
          s.getOutputStream().write(("{\"key\":\"u" + i + "\",\"fields\":{\"v\":\"x\"},"
              + "\"ack\":true}\n").getBytes(StandardCharsets.UTF_8));
          assertThat(in.readLine()).isEqualTo("{\"ok\":true,\"line\":" + i + "}");
        }
      }
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(metrics.group(1)))
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue(MetricsEndpoint.CONTENT_TYPE);
      double userBytes = 0;
      Matcher m = Pattern.compile("strata_user_bytes_total\\{dataset=\"people\",partition=\"\\d\","
          + "index=\"primary\"\\} (\\d+)").matcher(r.body());
      while (m.find()) {
        userBytes += Double.parseDouble(m.group(1));
      }
      assertThat(userBytes).as("key and value bytes of the 100 upserts in both partitions")
          .isPositive();
      assertThat(r.body()).contains("# TYPE strata_stalls_total counter",
          "strata_io_flush_bytes_admitted_total{dataset=\"people\"}");
      HttpResponse<String> other = http.send(HttpRequest.newBuilder(
          URI.create(metrics.group(1).replace("/metrics", "/other"))).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(other.statusCode()).isEqualTo(404);
      p.destroy(); // SIGTERM
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(stderr)).isZero();
    } finally {
      p.destroyForcibly();
      p.waitFor(60, TimeUnit.SECONDS);
    }
  }
}
