package org.strata.asterixdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.ycsb.asterixdb.QueryService;
import org.strata.twophase.GeneratedRecord;
import org.strata.twophase.PhaseSetup;
import org.strata.twophase.SystemUnderTest;
import org.strata.twophase.TargetStats;
import org.strata.twophase.TwoPhaseTarget;

/**
 * An AsterixDB 0.9.8 cluster (embedded, {@link EmbeddedCluster}) as the system under test of a
 * two-phase run, written through a socket feed as in Luo &amp; Carey: each phase starts the
 * cluster on its copy of the loaded directory with the phase's Strata scheduler, writes every
 * record as one ADM line into the feed, reads through the query service, and samples the disk
 * components of the dataset's primary index on every partition from the node controllers.
 *
 * <p>A socket feed acknowledges nothing, so a write's latency here is the time to hand its line
 * to the feed's connection: it grows only when AsterixDB stops reading (its intake is full and
 * TCP's buffers with it), not with each record's storage. {@link #open}'s {@code flush} therefore
 * first sends a marker record and waits until a query finds it (a feed connection's records are
 * stored in order), then flushes the dataset on every node.
 */
public final class AsterixDbTarget implements TwoPhaseTarget {
  private static final String DATAVERSE = "twophase";
  private static final String DATASET = "usertable";
  private static final String MARKER = "~strata-marker";

  private final NamedPlugin policy;
  private final long memoryBudget;
  private final int nodes;
  private final int feedPort;
  private final long writeRateLimit;
  private final long forceBytes;
  private final PolicyRow row;
  private final boolean asterixDbOwn;
  private final IoBudget budget;

  /** Whose throttle applies the configuration's {@code io.write-rate-limit} inside the cluster. */
  public enum IoBudget {
    /**
     * Strata's: one budget per node controller, shared by all its partitions' flushes, merges and
     * bulk loads, flushes first ({@link StrataRateLimiterProvider}); the report shows its use.
     */
    STRATA,
    /** AsterixDB's own {@code storage.write.rate.limit}, one budget per storage partition. */
    ASTERIXDB
  }

  /**
   * @param policy the Strata merge policy of the dataset (a policy with a {@link PolicyRow})
   * @param memoryBudget each node's memory for memory components ({@code
   *     storage.memorycomponent.globalbudget}), at least 4 MB
   * @param nodes node controllers of the cluster
   * @param feedPort the socket feed's port on 127.0.0.1
   * @throws InvalidConfigurationException if the policy has no row
   */
  public AsterixDbTarget(NamedPlugin policy, long memoryBudget, int nodes, int feedPort) {
    this(policy, memoryBudget, nodes, feedPort, 0, 0);
  }

  /**
   * @param writeRateLimit the configuration's {@code io.write-rate-limit} in bytes/s (0: none),
   *     applied as AsterixDB's own {@code storage.write.rate.limit}, split evenly over the
   *     cluster's storage partitions (AsterixDB throttles each partition on its own), to the
   *     testing and running phases (the load runs unthrottled, as for every system)
   * @param forceBytes the configuration's {@code io.force-bytes} (0: AsterixDB's default), applied
   *     as {@code storage.disk.force.bytes}
   */
  public AsterixDbTarget(NamedPlugin policy, long memoryBudget, int nodes, int feedPort,
      long writeRateLimit, long forceBytes) {
    this(policy, memoryBudget, nodes, feedPort, writeRateLimit, forceBytes, false,
        IoBudget.ASTERIXDB);
  }

  /**
   * @param asterixDbOwn true to run the dataset with AsterixDB 0.9.8's own implementation of the
   *     policy ({@link PolicyRow#asterixDbOwn()}, the same {@code WITH} parameters) instead of
   *     Strata's: the baseline of a comparison, e.g. AsterixDB's default {@code concurrent}
   * @param budget whose throttle applies {@code writeRateLimit}
   * @throws InvalidConfigurationException if AsterixDB has no implementation of the policy, or
   *     the policy sets parameters that AsterixDB's takes no {@code WITH} name for
   */
  public AsterixDbTarget(NamedPlugin policy, long memoryBudget, int nodes, int feedPort,
      long writeRateLimit, long forceBytes, boolean asterixDbOwn, IoBudget budget) {
    this.budget = budget;
    if (memoryBudget < (4L << 20)) {
      throw InvalidConfigurationException.of("memory budget per node", memoryBudget,
          "4 MB or more");
    }
    this.policy = policy;
    this.memoryBudget = memoryBudget;
    this.nodes = nodes;
    this.feedPort = feedPort;
    this.writeRateLimit = writeRateLimit;
    this.forceBytes = forceBytes;
    this.row = PolicyRow.byStrataPolicy(policy.name()).orElseThrow(() ->
        InvalidConfigurationException.of("merge-policy.name", policy.name(),
            "a Strata policy with an AsterixDB row: " + String.join(", ", strataPolicies())));
    this.asterixDbOwn = asterixDbOwn;
    if (asterixDbOwn) {
      if (row.asterixDbOwn().isEmpty()) {
        throw InvalidConfigurationException.of("merge-policy.name", policy.name(),
            "a policy AsterixDB 0.9.8 implements too: " + String.join(", ", ownPolicies()));
      }
      for (String k : policy.parameters().keySet()) {
        if (!row.mappedStrataNames().contains(k)) {
          throw InvalidConfigurationException.of("merge-policy.parameters." + k,
              policy.parameters().get(k), "none: AsterixDB's own " + row.asterixDbOwn().get()
                  + " takes only " + row.mappedStrataNames());
        }
      }
    }
  }

  private static List<String> ownPolicies() {
    List<String> out = new ArrayList<>();
    for (PolicyRow r : PolicyRow.values()) {
      r.asterixDbOwn().ifPresent(x -> out.add(r.strataPolicy()));
    }
    return out;
  }

  private static List<String> strataPolicies() {
    List<String> out = new ArrayList<>();
    for (PolicyRow r : PolicyRow.values()) {
      out.add(r.strataPolicy());
    }
    return out;
  }

  @Override
  public String system() {
    return "asterixdb";
  }

  @Override
  public String label() {
    return (asterixDbOwn ? "asterixdb-own-" : "asterixdb-") + policy.name();
  }

  @Override
  public String description() {
    return "AsterixDB 0.9.8, " + nodes + " node controllers in one JVM, dataset with "
        + (asterixDbOwn ? "AsterixDB's own " + row.asterixDbOwn().get() + " policy"
            : row.rowName()) + " " + policy.parameters() + ", " + (memoryBudget >> 20)
        + " MB of memory components per node, written through a socket feed; "
        + (writeRateLimit <= 0 ? "no I/O limit (storage.write.rate.limit unset)"
            : budget == IoBudget.STRATA ? "I/O limit " + writeRateLimit + " bytes/s in all,"
                + " Strata's budget of " + partitionLimit() + " bytes/s on each of its " + nodes
                + " node controllers, shared by their partitions, flushes first (the extension's"
                + " io.write-rate-limit; testing and running phases)"
            : "I/O limit " + writeRateLimit + " bytes/s in all, AsterixDB's"
            + " own storage.write.rate.limit of " + partitionLimit() + " bytes/s on each of its "
            + nodes + " storage partitions (testing and running phases)")
        + "; " + (forceBytes > 0 ? "a force every " + forceBytes + " bytes"
            + " (storage.disk.force.bytes)" : "forces at AsterixDB's default"
            + " storage.disk.force.bytes");
  }

  /** Each node's (and storage partition's: one per node) share of the write-rate limit. */
  private long partitionLimit() {
    return Math.max(1, writeRateLimit / nodes);
  }

  /** The {@code [nc]} section of a phase's cluster configuration. */
  Map<String, String> ncSection(PhaseSetup.Kind kind) {
    Map<String, String> nc = new LinkedHashMap<>();
    nc.put("storage.memorycomponent.globalbudget", (memoryBudget >> 20) + "MB");
    if (writeRateLimit > 0 && kind != PhaseSetup.Kind.LOAD && budget == IoBudget.ASTERIXDB) {
      nc.put("storage.write.rate.limit", Long.toString(partitionLimit()));
    }
    if (forceBytes > 0) {
      nc.put("storage.disk.force.bytes", Long.toString(forceBytes));
    }
    return nc;
  }

  @Override
  public List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured) {
    return configured;
  }

  @Override
  public NamedPlugin testingScheduler(NamedPlugin configured) {
    return configured;
  }

  /** The dataset's WITH clause: the row's AsterixDB parameters from the policy's. */
  String withClause() {
    List<String> ps = new ArrayList<>();
    Map<String, String> p = policy.parameters();
    for (PolicyRow.Param param : row.params()) {
      String v = p.get(param.strataName());
      if (v == null) {
        v = defaultOf(param.strataName());
      }
      String value = param.asterixName().equals("size-ratio") && !v.contains(".") ? v + ".0" : v;
      ps.add("\"" + param.asterixName() + "\": " + value);
    }
    String name = asterixDbOwn ? row.asterixDbOwn().get() : row.rowName();
    return "{\"merge-policy\": {\"name\": \"" + name + "\", \"parameters\": {"
        + String.join(", ", ps) + "}}}";
  }

  private String defaultOf(String strataName) {
    throw InvalidConfigurationException.of("merge-policy.parameters." + strataName, "(missing)",
        "a value: AsterixDB requires every parameter of " + row.rowName() + " in the WITH"
            + " clause (" + row.usage() + ")");
  }

  /**
   * The extension section for a phase: its scheduler, the policy's other parameters and, with
   * Strata's budget, each node's share of it (not while loading).
   */
  Map<String, String> section(NamedPlugin scheduler, PhaseSetup.Kind kind) {
    Map<String, String> s = new LinkedHashMap<>();
    if (writeRateLimit > 0 && kind != PhaseSetup.Kind.LOAD && budget == IoBudget.STRATA) {
      s.put(ExtensionSettings.WRITE_RATE_LIMIT, Long.toString(partitionLimit()));
    }
    if (scheduler != null) { // loading has none: the extension's default (greedy) runs
      s.put("scheduler", scheduler.name());
      scheduler.parameters().forEach((k, v) -> s.put("scheduler." + k, v));
    }
    policy.parameters().forEach((k, v) -> {
      if (!row.mappedStrataNames().contains(k)) {
        s.put("policy." + policy.name() + "." + k, v);
      }
    });
    return s;
  }

  @Override
  public SystemUnderTest open(Path dir, PhaseSetup setup) throws Exception {
    Map<String, Map<String, String>> user = new LinkedHashMap<>();
    user.put(StrataExtension.SECTION, section(setup.scheduler(), setup.kind()));
    user.put("nc", ncSection(setup.kind()));
    ClusterConfigFile conf = ClusterConfigFile.of(dir, nodes, 1, user);
    boolean fresh = !EmbeddedCluster.hasData(dir);
    EmbeddedCluster cluster = new EmbeddedCluster(dir, conf);
    cluster.start();
    try {
      QueryService sql = new QueryService("127.0.0.1", cluster.apiPort(), Duration.ofMinutes(10));
      if (fresh) {
        sql.execute("CREATE DATAVERSE " + DATAVERSE + "; USE " + DATAVERSE + ";"
            + " CREATE TYPE UserType AS { id: string };"
            + " CREATE DATASET " + DATASET + "(UserType) PRIMARY KEY id WITH " + withClause() + ";"
            + " CREATE FEED UserFeed WITH {\"adapter-name\": \"socket_adapter\", \"sockets\":"
            + " \"127.0.0.1:" + feedPort + "\", \"address-type\": \"IP\", \"type-name\":"
            + " \"UserType\", \"format\": \"adm\"};"
            + " CONNECT FEED UserFeed TO DATASET " + DATASET + ";");
      }
      sql.execute("USE " + DATAVERSE + "; START FEED UserFeed;");
      int id = sql.execute("SELECT VALUE d.DatasetId FROM Metadata.`Dataset` d WHERE"
          + " d.DataverseName = \"" + DATAVERSE + "\" AND d.DatasetName = \"" + DATASET + "\";")
          .get(0).asInt();
      return new Open(cluster, sql, id, new Socket("127.0.0.1", feedPort));
    } catch (Exception e) {
      cluster.stop();
      throw e;
    }
  }

  @SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
  private static final class Open implements SystemUnderTest {
    private final ObjectMapper json = new ObjectMapper();
    private final EmbeddedCluster cluster;
    private final QueryService sql;
    private final int datasetId;
    private final Socket socket;
    private final BufferedWriter feed;
    private final AtomicLong userBytes = new AtomicLong();
    private long markers;

    Open(EmbeddedCluster cluster, QueryService sql, int datasetId, Socket socket)
        throws IOException {
      this.cluster = cluster;
      this.sql = sql;
      this.datasetId = datasetId;
      this.socket = socket;
      socket.setTcpNoDelay(true);
      this.feed = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(),
          StandardCharsets.UTF_8));
    }

    @Override
    public void write(GeneratedRecord record) throws IOException {
      ObjectNode o = json.createObjectNode().put("id", record.key());
      record.fields().forEach(o::put);
      String line = json.writeValueAsString(o);
      synchronized (this) {
        feed.write(line);
        feed.write('\n');
        feed.flush();
      }
      userBytes.addAndGet(record.keyBytes().length + record.valueBytes().length);
    }

    @Override
    public byte[] read(String key) throws Exception {
      List<JsonNode> r = sql.execute("SELECT VALUE t FROM " + DATAVERSE + "." + DATASET
          + " t WHERE t.id = " + json.writeValueAsString(key) + ";");
      if (r.isEmpty()) {
        return null;
      }
      Map<String, String> fields = new TreeMap<>();
      for (Map.Entry<String, JsonNode> f : r.get(0).properties()) {
        if (!f.getKey().equals("id")) {
          fields.put(f.getKey(), f.getValue().asText());
        }
      }
      return GeneratedRecord.valueBytes(fields);
    }

    /** Waits until the feed has stored everything sent, then flushes the dataset everywhere. */
    @Override
    public void flush() throws Exception {
      long n;
      synchronized (this) {
        n = ++markers;
        feed.write(json.writeValueAsString(json.createObjectNode().put("id", MARKER)
            .put("n", n)));
        feed.write('\n');
        feed.flush();
      }
      long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
      while (true) {
        List<JsonNode> r = sql.execute("SELECT VALUE t.n FROM " + DATAVERSE + "." + DATASET
            + " t WHERE t.id = \"" + MARKER + "\";");
        if (!r.isEmpty() && r.get(0).asLong() >= n) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the socket feed did not store its records within"
              + " 10 minutes");
        }
        Thread.sleep(100);
      }
      for (NodeControllerService nc : cluster.nodeControllers()) {
        ((INcApplicationContext) nc.getApplicationContext()).getDatasetLifecycleManager()
            .flushDataset(datasetId, false);
      }
    }

    @Override
    public void awaitMerges() throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
      int quiet = 0;
      while (quiet < 2) {
        boolean idle = true;
        for (NodeControllerService nc : cluster.nodeControllers()) {
          idle &= ((StrataNCApplication) nc.getApplication()).schedulers().idle();
        }
        quiet = idle ? quiet + 1 : 0;
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("merges did not finish within 30 minutes");
        }
        Thread.sleep(100);
      }
    }

    @Override
    public TargetStats stats() {
      long components = 0;
      long space = 0;
      long flushed = 0;
      long merged = 0;
      StringBuilder shape = new StringBuilder("components per partition:");
      Map<Integer, Integer> perPartition = new TreeMap<>();
      for (NodeControllerService nc : cluster.nodeControllers()) {
        for (ComponentCensus.IndexComponents c : ComponentCensus.of(nc)) {
          if (isPrimary(c.path())) {
            components += c.diskComponents();
            space += c.componentSizes().stream().mapToLong(Long::longValue).sum();
            perPartition.put(c.path().partition(), c.diskComponents());
          }
        }
        NodeSchedulers s = ((StrataNCApplication) nc.getApplication()).schedulers();
        for (Map.Entry<String, List<Long>> e : s.flushSizes().entrySet()) {
          if (IndexPath.of(e.getKey()).filter(Open::isPrimary).isPresent()) {
            flushed += e.getValue().stream().mapToLong(Long::longValue).sum();
          }
        }
        for (Map.Entry<String, Long> e : s.mergedBytes().entrySet()) {
          if (IndexPath.of(e.getKey()).filter(Open::isPrimary).isPresent()) {
            merged += e.getValue();
          }
        }
      }
      perPartition.forEach((p, n) -> shape.append(" p").append(p).append('=').append(n));
      TargetStats stats = new TargetStats(components, flushed, merged, userBytes.get(), 0, 0,
          false, 0, space, Map.of(), shape.toString());
      Map<String, Long> io = new LinkedHashMap<>();
      for (NodeControllerService nc : cluster.nodeControllers()) {
        StrataRateLimiterProvider b = ((StrataNCApplication) nc.getApplication()).rateLimiters();
        if (b != null) {
          b.counters().toMap().forEach((k, v) -> io.merge(k, v, Long::sum));
        }
      }
      return io.isEmpty() ? stats : stats.withIoCounters(io);
    }

    private static boolean isPrimary(IndexPath p) {
      return p.dataverse().equals(DATAVERSE) && p.dataset().equals(DATASET)
          && p.index().equals(DATASET);
    }

    @Override
    public void close() throws Exception {
      try {
        synchronized (this) {
          feed.flush();
        }
        socket.close();
        sql.execute("USE " + DATAVERSE + "; STOP FEED UserFeed;");
      } finally {
        cluster.stop();
      }
    }
  }
}
