package org.strata.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.ycsb.feed.FeedFormat;
import org.strata.ycsb.feed.FeedLimits;
import org.strata.ycsb.feed.FeedServer;
import org.strata.ycsb.feed.FeedStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code strata feed-server}: a socket feed into a dataset, until interrupted. */
@Command(name = "feed-server", mixinStandardHelpOptions = true,
    description = "Serve a socket feed into a dataset: newline-delimited JSON records as for "
        + "import (docs/two-phase.md, 'Feed protocol'). Runs until interrupted (Ctrl-C or "
        + "SIGTERM), then closes the dataset cleanly. Prints 'listening on HOST:PORT' when ready.")
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
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      server.close();
      ds.close();
      out.println(now() + " stopped: " + describe(server.stats()));
      out.flush();
      stopped.countDown();
    }, "strata-feed-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println("listening on " + host + ":" + server.port());
    out.flush();
    while (!stopped.await(statsEvery > 0 ? statsEvery : 3600, java.util.concurrent.TimeUnit.SECONDS)) {
      if (statsEvery > 0) {
        out.println(now() + " " + describe(server.stats()));
        out.flush();
      }
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
        + " %d refused, %d closed for a too long line",
        s.connections(), s.lines(), s.applied(), s.upserts(), s.deletes(), s.reads(),
        s.rejected(), s.failed(), s.dropped(), s.waitingLines(), s.unsentReplyBytes(),
        s.maxUnsentReplyBytes(),
        s.maxConnectionUnsentReplyBytes(), s.waitingForReplyRoom(), s.readingPaused(),
        s.openConnections(), s.refusedConnections(), s.closedForLongLines());
  }
}
