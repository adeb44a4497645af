package org.strata.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.logging.log4j.LogManager;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.dataset.DatasetMetrics;
import org.strata.lsm.metrics.MetricsEndpoint;
import org.strata.ycsb.feed.FeedFormat;
import org.strata.ycsb.feed.FeedLimits;
import org.strata.ycsb.feed.FeedServer;
import org.strata.ycsb.feed.FeedStats;
import org.strata.ycsb.feed.StopSignals;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata feed-server}: a socket feed into a dataset, until stopped by SIGTERM or Ctrl-C
 * (SIGINT). Either signal stops the server cleanly: it stops reading, closes the dataset, prints
 * its {@code stopped:} line and exits 0. The signals are handled by the command itself (not by
 * the JVM's default handler, which would run the shutdown hooks and exit 143 or 130); a shutdown
 * hook still stops the server cleanly if the JVM is shut down otherwise (e.g. SIGHUP), and it
 * stops Log4j last, whose own shutdown hook is disabled (log4j2.xml) so that it does not stop
 * logging while the dataset is still being closed.
 */
@Command(name = "feed-server", mixinStandardHelpOptions = true,
    description = "Serve a socket feed into a dataset: newline-delimited JSON records as for "
        + "import (docs/two-phase.md, 'Feed protocol'). Runs until SIGTERM or Ctrl-C, then "
        + "closes the dataset cleanly, prints its 'stopped:' line and exits 0. Prints "
        + "'listening on HOST:PORT' when ready.")
final class FeedServerCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "Dataset directory (created if absent).")
  Path dir;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Dataset configuration (required for a new dataset).")
  Path config;

  @Option(names = "--port", required = true, paramLabel = "P",
      description = "TCP port; 0 picks a free one.")
  int port;

  @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
      description = "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).")
  String host;

  @Option(names = "--format", paramLabel = "strata|asterixdb", defaultValue = "strata",
      description = "Lines the clients send: strata (default), Strata's envelope"
          + " {\"op\":\"upsert\",\"key\":...,\"fields\":{...}} with replies; or asterixdb,"
          + " plain JSON records as AsterixDB's socket feed takes them, keyed by --key-field,"
          + " values of any JSON type stored faithfully, nothing sent back.")
  String format;

  @Option(names = "--key-field", paramLabel = "NAME",
      description = "With --format asterixdb: the field that holds the primary key.")
  String keyField;

  @Option(names = "--stats-every", paramLabel = "SECONDS", defaultValue = "10",
      description = "Print the counters every SECONDS, each line starting with its UTC time"
          + " (0: only at the end).")
  int statsEvery;

  @Option(names = "--max-line-bytes", paramLabel = "BYTES",
      description = "Longest request line (default 17825792, 17 MiB, at least 1024). A longer"
          + " line is answered with a rejection and its connection is closed.")
  int maxLineBytes = FeedLimits.defaults().maxLineBytes();

  @Option(names = "--max-connections", paramLabel = "N",
      description = "Most connections open at a time (default 1024); one more is answered with"
          + " a refusal and closed.")
  int maxConnections = FeedLimits.defaults().maxConnections();

  @Option(names = "--max-buffered-bytes", paramLabel = "BYTES",
      description = "Most bytes of request lines the server holds for all connections together:"
          + " lines being received, waiting or being applied (default 134217728, 128 MiB, or"
          + " more if --max-connections and --max-line-bytes need it). Every connection has 32"
          + " KiB of it to itself; at least that per connection plus one line of"
          + " --max-line-bytes and 16 KiB. A connection that gets no room is not read until some"
          + " frees (docs/reliability-feed.md).")
  Long maxBufferedBytes;

  @Option(names = "--metrics-port", paramLabel = "P",
      description = "Also serve the dataset's metrics in Prometheus' text format at"
          + " http://HOST:P/metrics (docs/observing.md); 0 for any free port. Off by default.")
  Integer metricsPort;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new ParameterException(spec.commandLine(), "--port must be from 0 to 65535, got "
          + port);
    }
    FeedLimits limits;
    try {
      limits = FeedLimits.defaults().withMaxLineBytes(maxLineBytes)
          .withMaxConnections(maxConnections);
      if (maxBufferedBytes != null) {
        limits = limits.withMaxBufferedBytes(maxBufferedBytes);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    FeedFormat feedFormat;
    try {
      feedFormat = switch (format) {
        case "strata" -> new FeedFormat(FeedFormat.Kind.STRATA, keyField);
        case "asterixdb" -> FeedFormat.asterixdb(keyField);
        default -> throw new IllegalArgumentException("--format: '" + format + "' is not"
            + " allowed; allowed: strata, asterixdb");
      };
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    DatasetConfig cfg = config == null ? null : DatasetConfigJson.read(config);
    if (cfg == null && !Dataset.isDataset(dir)) {
      throw new ParameterException(spec.commandLine(), dir + " holds no dataset yet; give"
          + " --config FILE to create it");
    }
    PrintWriter out = spec.commandLine().getOut();
    Dataset ds = StoreLog.open(spec, dir, () -> Dataset.open(dir, cfg));
    FeedServer server;
    try {
      server = FeedServer.start(ds, host, port, limits, feedFormat);
    } catch (RuntimeException e) {
      ds.close();
      throw new IllegalArgumentException("cannot listen on " + host + ":" + port + ": " + e, e);
    }
    MetricsEndpoint metrics = null;
    if (metricsPort != null) {
      try {
        metrics = MetricsEndpoint.start(host, metricsPort, () -> DatasetMetrics.of(ds));
      } catch (IOException | RuntimeException e) {
        server.close();
        ds.close();
        throw new IllegalArgumentException("cannot serve metrics on " + host + ":" + metricsPort
            + ": " + e, e);
      }
    }
    MetricsEndpoint metricsServed = metrics;
    CountDownLatch stopRequested = new CountDownLatch(1);
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop = () -> {
      synchronized (stopped) { // once, whoever comes first; the other waits until it is done
        if (stopped.compareAndSet(false, true)) {
          if (metricsServed != null) {
            metricsServed.close();
          }
          server.close();
          ds.close();
          out.println(now() + " stopped: " + describe(server.stats()));
          out.flush();
        }
      }
    };
    // If the JVM shuts down by other means than the signals handled below: stop cleanly, then
    // stop Log4j (its own shutdown hook is disabled, so it logs until the dataset is closed).
    Thread hook = new Thread(() -> {
      stop.run();
      LogManager.shutdown();
    }, "strata-feed-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    StopSignals.handle(stopRequested::countDown, "TERM", "INT");
    out.println("listening on " + host + ":" + server.port());
    if (metrics != null) {
      out.println("metrics at http://" + host + ":" + metrics.port() + "/metrics");
    }
    out.flush();
    while (!stopRequested.await(statsEvery > 0 ? statsEvery : 3600, TimeUnit.SECONDS)) {
      if (statsEvery > 0) {
        out.println(now() + " " + describe(server.stats()));
        out.flush();
      }
    }
    stop.run(); // a signal: stopped here, the command then exits 0
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already: the hook finds the server stopped
    }
    return 0;
  }

  /** The time of a counter line: UTC, to the second (e.g. {@code 2026-11-23T11:20:05Z}). */
  private static String now() {
    return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }

  static String describe(FeedStats.Snapshot s) {
    return String.format("%d connections, %d lines: %d applied (%d upserts, %d deletes), %d reads,"
        + " %d rejected, %d failed, %d dropped at stop, %d waiting; unsent replies %d bytes (max"
        + " %d, one connection max %d), %d waiting for slow clients, %d not reading; %d open,"
        + " %d refused, %d closed for a too long line, %d ended by their client; request lines"
        + " held %d bytes (max %d), %d connections waiting for room",
        s.connections(), s.lines(), s.applied(), s.upserts(), s.deletes(), s.reads(),
        s.rejected(), s.failed(), s.dropped(), s.waitingLines(), s.unsentReplyBytes(),
        s.maxUnsentReplyBytes(),
        s.maxConnectionUnsentReplyBytes(), s.waitingForReplyRoom(), s.readingPaused(),
        s.openConnections(), s.refusedConnections(), s.closedForLongLines(), s.inputClosed(),
        s.bufferedBytes(), s.peakBufferedBytes(), s.waitingForBufferRoom());
  }
}
