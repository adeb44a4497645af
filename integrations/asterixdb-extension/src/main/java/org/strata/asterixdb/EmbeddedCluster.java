package org.strata.asterixdb;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.asterix.common.api.IClusterManagementWork.ClusterState;
import org.apache.asterix.common.dataflow.ICcApplicationContext;
import org.apache.hyracks.control.cc.ClusterControllerService;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.apache.hyracks.control.common.controllers.CCConfig;
import org.apache.hyracks.control.common.controllers.ControllerConfig;
import org.apache.hyracks.control.common.controllers.NCConfig;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * An AsterixDB 0.9.8 cluster of one cluster controller and N node controllers in this JVM, with
 * Strata's extension, its controllers talking over 127.0.0.1, and all
 * data under one directory ({@link ClusterConfigFile}). Stopping it stops the node controllers
 * (each flushes and checkpoints its datasets) and then the cluster controller; a later start on
 * the same directory recovers the data.
 *
 * <p>AsterixDB keeps process-wide singletons (its metadata manager among them), so one cluster at
 * a time runs in a JVM; it can be stopped and started again.
 */
@SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
public final class EmbeddedCluster implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(EmbeddedCluster.class);

  private final Path dir;
  private final ClusterConfigFile config;
  private ClusterControllerService cc;
  private final List<NodeControllerService> ncs = new ArrayList<>();

  /**
   * @param dir the cluster directory
   * @param config the configuration of that directory
   */
  public EmbeddedCluster(Path dir, ClusterConfigFile config) {
    this.dir = dir.toAbsolutePath().normalize();
    this.config = config;
  }

  /** The cluster directory. */
  public Path dir() {
    return dir;
  }

  /** The configuration it runs with. */
  public ClusterConfigFile config() {
    return config;
  }

  /** The query service's port (19002 unless the configuration says otherwise). */
  public int apiPort() {
    String p = config.get("cc", "api.port");
    return p == null ? 19002 : Integer.parseInt(p.strip());
  }

  /** The node API port of each node, in node order. */
  public Map<String, Integer> nodeApiPorts() {
    Map<String, Integer> m = new java.util.LinkedHashMap<>();
    for (String n : config.nodes()) {
      m.put(n, Integer.parseInt(config.node(n).get("nc.api.port").strip()));
    }
    return m;
  }

  /** The running node controllers (empty before {@link #start} and after {@link #stop}). */
  public List<NodeControllerService> nodeControllers() {
    return List.copyOf(ncs);
  }

  /**
   * Writes the configuration, checks that AsterixDB's fixed ports are free, and starts the
   * cluster controller and every node controller; returns when the cluster is active.
   *
   * @throws PortInUseException if a port the cluster needs is taken, before anything starts
   */
  public synchronized void start() throws Exception {
    if (cc != null) {
      throw new IllegalStateException("the cluster in " + dir + " is already running");
    }
    checkPorts(config.fixedPorts());
    Path conf = config.write(dir);
    String[] args = {"-config-file", conf.toString()};
    ConfigManager ccConfigManager = new ConfigManager(args);
    StrataCCApplication ccApp = new StrataCCApplication();
    ccApp.embedded();
    ccApp.registerConfig(ccConfigManager);
    CCConfig ccConfig = new CCConfig(ccConfigManager);
    ccConfig.setClusterListenAddress(loopback());
    ccConfig.setClientListenAddress(loopback());
    ccConfigManager.set(ControllerConfig.Option.DEFAULT_DIR, dir.resolve("cc").toString());
    ccConfigManager.processConfig();
    for (String node : ccConfigManager.getNodeNames()) {
      // node controllers run in this JVM: the cluster controller must not start them itself
      ccConfigManager.set(node, NCConfig.Option.NCSERVICE_PORT, NCConfig.NCSERVICE_PORT_DISABLED);
    }
    List<NodeControllerService> nodes = new ArrayList<>();
    for (String node : config.nodes()) {
      ConfigManager ncConfigManager = new ConfigManager(args);
      StrataNCApplication ncApp = new StrataNCApplication();
      ncApp.embedded();
      ncApp.registerConfig(ncConfigManager);
      NCConfig nc = new NCConfig(node, ncConfigManager);
      nc.setClusterAddress(loopback());
      nc.setClusterListenAddress(loopback());
      nc.setDataListenAddress(loopback());
      nc.setResultListenAddress(loopback());
      nc.setMessagingListenAddress(loopback());
      nc.setVirtualNC();
      ncConfigManager.set(ControllerConfig.Option.DEFAULT_DIR, dir.resolve(node).toString());
      ncConfigManager.processConfig();
      nodes.add(new NodeControllerService(nc, ncApp));
    }
    ClusterControllerService ccs = new ClusterControllerService(ccConfig, ccApp);
    ccs.start();
    cc = ccs;
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> starters = new ArrayList<>();
    for (NodeControllerService n : nodes) {
      Thread t = new Thread(() -> {
        try {
          n.start();
        } catch (Throwable e) { // reported below, with the others
          failures.add(e);
        }
      }, "strata-start-" + n.getId());
      t.start();
      starters.add(t);
    }
    for (Thread t : starters) {
      t.join();
    }
    ncs.addAll(nodes);
    if (!failures.isEmpty()) {
      IllegalStateException e = new IllegalStateException("a node controller of the cluster in "
          + dir + " did not start: " + failures.get(0), failures.get(0));
      try {
        stop();
      } catch (Exception s) {
        e.addSuppressed(s);
      }
      throw e;
    }
    ((ICcApplicationContext) cc.getApplicationContext()).getClusterStateManager()
        .waitForState(ClusterState.ACTIVE);
    LOG.info("AsterixDB cluster in {} is active", dir);
  }

  /**
   * Stops every node controller (each flushes its datasets and writes a checkpoint), then the
   * cluster controller. Does nothing if the cluster is not running.
   */
  public synchronized void stop() throws Exception {
    if (cc == null) {
      return;
    }
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> stoppers = new ArrayList<>();
    for (NodeControllerService n : ncs) {
      Thread t = new Thread(() -> {
        try {
          n.stop();
        } catch (Throwable e) { // reported below, with the others
          failures.add(e);
        }
      }, "strata-stop-" + n.getId());
      t.start();
      stoppers.add(t);
    }
    for (Thread t : stoppers) {
      t.join();
    }
    ncs.clear();
    try {
      cc.stop(false);
    } finally {
      cc = null;
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a node controller did not stop cleanly: "
          + failures.get(0), failures.get(0));
    }
  }

  @Override
  public void close() throws Exception {
    stop();
  }

  private static String loopback() {
    return InetAddress.getLoopbackAddress().getHostAddress();
  }

  /**
   * Binds each port on 127.0.0.1 and on every interface and lets it go again; a port that cannot
   * be bound fails the start, naming the port and what AsterixDB uses it for.
   */
  static void checkPorts(Map<Integer, String> ports) {
    for (Map.Entry<Integer, String> e : ports.entrySet()) {
      for (InetSocketAddress a : List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          e.getKey()), new InetSocketAddress(e.getKey()))) {
        try (ServerSocket s = new ServerSocket()) {
          s.setReuseAddress(true);
          s.bind(a);
        } catch (IOException x) {
          throw new PortInUseException(e.getKey(), e.getValue(), x);
        }
      }
    }
  }

  /** Whether {@code dir} already holds a cluster's data. */
  public static boolean hasData(Path dir) {
    return Files.isDirectory(dir.resolve("cc"));
  }
}
