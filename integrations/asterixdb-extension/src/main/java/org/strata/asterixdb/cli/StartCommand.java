package org.strata.asterixdb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.strata.asterixdb.ClusterConfigFile;
import org.strata.asterixdb.EmbeddedCluster;
import org.strata.asterixdb.NodeMetrics;
import org.strata.lsm.metrics.MetricsEndpoint;
import org.strata.ycsb.feed.StopSignals;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code strata asterixdb start --nodes N --dir DIR [--config FILE]}: runs a cluster controller
 * and N node controllers in this process with Strata's extension, prints where the query service
 * is, and runs until SIGTERM or Ctrl-C, when it stops every node controller (each flushes its
 * datasets) and the cluster controller. The data stays in DIR; a later start recovers it.
 */
@Command(name = "start", mixinStandardHelpOptions = true,
    description = "Start an embedded AsterixDB 0.9.8 cluster with Strata's extension.")
final class StartCommand implements Callable<Integer> {
  @Option(names = "--nodes", defaultValue = "2",
      description = "Node controllers (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--partitions", defaultValue = "1",
      description = "Storage partitions (I/O devices) per node (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--dir", required = true, description = "Directory of the cluster's data.")
  Path dir;

  @Option(names = "--config", description = "AsterixDB ini file laid over the generated one"
      + " (for example the [extension/org.strata.asterixdb.StrataExtension] section).")
  Path config;

  @Option(names = "--metrics-port", paramLabel = "P",
      description = "Also serve the nodes' Strata metrics in Prometheus' text format at"
          + " http://127.0.0.1:P/metrics (docs/observing.md); 0 for any free port.")
  Integer metricsPort;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Map<String, Map<String, String>> user = config == null ? Map.of()
        : ClusterConfigFile.readIni(config);
    ClusterConfigFile conf = ClusterConfigFile.of(dir, nodes, partitions, user);
    EmbeddedCluster cluster = new EmbeddedCluster(dir, conf);
    PrintWriter out = spec.commandLine().getOut();
    boolean recovering = EmbeddedCluster.hasData(dir);
    // bound first: a taken metrics port refuses the start before the cluster runs
    MetricsEndpoint metrics = null;
    if (metricsPort != null) {
      try {
        metrics = MetricsEndpoint.start("127.0.0.1", metricsPort,
            () -> NodeMetrics.of(cluster.nodeControllers()));
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("--metrics-port: cannot serve metrics on 127.0.0.1:"
            + metricsPort + ": " + e.getMessage(), e);
      }
    }
    MetricsEndpoint served = metrics;
    try {
      cluster.start();
    } catch (Exception | Error e) {
      if (served != null) {
        served.close();
      }
      throw e;
    }
    // SIGTERM and Ctrl-C wake this thread, which stops the cluster and exits 0; the hook stops
    // it on any other shutdown of the JVM. Whoever comes first stops it, once.
    CountDownLatch stopRequested = new CountDownLatch(1);
    AtomicBoolean stoppedOnce = new AtomicBoolean();
    Runnable stop = () -> {
      if (!stoppedOnce.compareAndSet(false, true)) {
        return;
      }
      try {
        if (served != null) {
          served.close();
        }
        cluster.stop();
        out.println("AsterixDB cluster stopped; data kept in " + cluster.dir());
      } catch (Exception e) {
        out.println("error: the cluster did not stop cleanly: " + e);
      }
      out.flush();
    };
    Thread hook = new Thread(stop, "strata-asterixdb-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    StopSignals.handle(stopRequested::countDown, "TERM", "INT");
    out.printf("AsterixDB 0.9.8 cluster with %d node controller(s) is active (%s)%n", nodes,
        recovering ? "recovered from " + cluster.dir() : "new, in " + cluster.dir());
    out.printf("SQL++ query service: http://127.0.0.1:%d/query/service%n", cluster.apiPort());
    cluster.nodeApiPorts().forEach((n, p) -> out.printf("node %s: API port %d, data in %s%n", n,
        p, cluster.dir().resolve(n)));
    out.printf("configuration: %s%n", cluster.dir().resolve(ClusterConfigFile.FILE_NAME));
    if (served != null) {
      out.printf("metrics at http://127.0.0.1:%d/metrics%n", served.port());
    }
    out.println("stop with SIGTERM or Ctrl-C");
    out.flush();
    stopRequested.await();
    stop.run();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already: the hook finds the cluster stopped
    }
    return 0;
  }
}
