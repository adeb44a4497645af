package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.strata.ycsb.asterixdb.QueryService;

/**
 * Strata in AsterixDB 0.9.8's official server distribution, as a user deploys it: the binary
 * assembly from Maven Central unpacked, {@code bin/strata asterixdb install --home} run on it, and
 * the sample cluster started the way AsterixDB's {@code start-sample-cluster.sh} starts it (two
 * node services, then the cluster controller through Strata's launch script; on ports free now),
 * each process started by this test and stopped by it through its process id. A
 * {@code strata-concurrent} dataset with a secondary index is created through SQL++ and fed through
 * a socket feed; the records a query has seen are the acknowledged ones. Mid-feed a node controller
 * is killed with SIGKILL, the cluster is stopped and started again, and every acknowledged record
 * is found by primary and by secondary key (the plan uses the secondary index), with the Strata
 * policy still on the dataset and Strata's application in every node controller.
 */
class DistributionIT {
  private static final int ACKED = 4_000;
  private static final Duration START = Duration.ofMinutes(3);

  private final List<ProcessHandle> started = new ArrayList<>();
  private Path home;
  private Path logs;
  private int apiPort;

  @AfterEach
  void stopEverything() {
    for (ProcessHandle p : started) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    for (ProcessHandle p : started) {
      p.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(e -> p).join();
    }
    // the distribution's 180 MB of jars go; its logs and data stay in target/ for a reader
    for (String bulk : List.of("repo", "lib")) {
      if (home != null && Files.isDirectory(home.resolve(bulk))) {
        try (var files = Files.walk(home.resolve(bulk))) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
          System.err.println("DistributionIT: could not delete " + home.resolve(bulk));
        }
      }
    }
  }

  @Test
  void installedClusterKeepsEveryAcknowledgedRecordThroughANodeKilledMidFeed() throws Exception {
    String zip = System.getProperty("asterixdb.server.zip", "");
    Assumptions.assumeTrue(Files.isRegularFile(Path.of(zip)),
        "DistributionIT skipped: the AsterixDB 0.9.8 server distribution was not fetched ("
            + zip + ")");
    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "distribution-it-");
    unzip(Path.of(zip), dir);
    home = dir.resolve("apache-asterixdb-0.9.8");
    logs = dir.resolve("logs");
    Files.createDirectories(logs);

    Path repoRoot = Path.of("..", "..").toAbsolutePath().normalize();
    Process install = new ProcessBuilder(repoRoot.resolve("bin/strata").toString(), "asterixdb",
        "install", "--home", home.toString()).redirectErrorStream(true)
        .redirectOutput(logs.resolve("install.log").toFile()).start();
    assertThat(install.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(install.exitValue()).as(Files.readString(logs.resolve("install.log"))).isZero();

    int feedPort = movePortsToFreeOnes();
    startCluster("first");
    ProcessHandle killed = null;
    QueryService sql = new QueryService("127.0.0.1", apiPort, Duration.ofMinutes(5));
    sql.execute("CREATE DATAVERSE d; USE d; CREATE TYPE T AS { id: int, v: int };"
        + " CREATE DATASET D(T) PRIMARY KEY id WITH {\"merge-policy\": {\"name\":"
        + " \"strata-concurrent\", \"parameters\": {\"size-ratio\": 1.2,"
        + " \"min-merge-component-count\": 3, \"max-merge-component-count\": 10,"
        + " \"max-component-count\": 30}}};"
        + " CREATE INDEX Dv ON D(v);"
        + " CREATE FEED F WITH {\"adapter-name\": \"socket_adapter\", \"sockets\": \"127.0.0.1:"
        + feedPort + "\", \"address-type\": \"IP\", \"type-name\": \"T\", \"format\": \"adm\"};"
        + " CONNECT FEED F TO DATASET D; START FEED F;");
    try (Socket feed = connect(feedPort);
        BufferedWriter w = new BufferedWriter(new OutputStreamWriter(feed.getOutputStream(),
            StandardCharsets.UTF_8))) {
      for (int id = 0; id < ACKED; id++) {
        w.write(record(id));
      }
      w.flush();
      awaitCount(sql, ACKED);
      // Mid-feed: more records go out while a node controller is killed.
      ProcessHandle victim = nodeControllers().get(0);
      killed = victim;
      for (int id = ACKED; id < ACKED + 2_000; id++) {
        w.write(record(id));
        if (id == ACKED + 1_000) {
          w.flush();
          victim.destroyForcibly();
          victim.onExit().get(60, TimeUnit.SECONDS);
        }
      }
      w.flush();
    } catch (IOException e) {
      // the node holding the feed's socket may be the one killed: the send fails, as it should
    }
    assertThat(killed).as("a node controller was killed mid-feed").isNotNull();
    assertThat(killed.isAlive()).isFalse();

    stopCluster();
    startCluster("after the kill");
    sql = new QueryService("127.0.0.1", apiPort, Duration.ofMinutes(5));
    List<ProcessHandle> ncs = nodeControllers();
    assertThat(ncs).hasSize(2);
    for (ProcessHandle nc : ncs) {
      assertThat(String.join(" ", nc.info().arguments().orElse(new String[0])))
          .as("node controller started by bin/strata-asterixnc")
          .contains("org.strata.asterixdb.StrataNCApplication");
    }
    assertThat(sql.execute("SELECT VALUE d.CompactionPolicy FROM Metadata.`Dataset` d WHERE"
        + " d.DataverseName = \"d\" AND d.DatasetName = \"D\";").get(0).asText())
        .isEqualTo("strata-concurrent");

    Set<Integer> byPrimary = ids(sql.execute("USE d; SELECT VALUE x.id FROM D x"
        + " WHERE x.id >= 0 AND x.v = x.id * 7;"));
    Set<Integer> bySecondary = ids(sql.execute("USE d; SELECT VALUE x.id FROM D x"
        + " WHERE x.v >= 0 AND x.v = x.id * 7;"));
    for (int id = 0; id < ACKED; id++) {
      assertThat(byPrimary).as("acknowledged record %d by primary key", id).contains(id);
      assertThat(bySecondary).as("acknowledged record %d by secondary key", id).contains(id);
    }
    assertThat(sql.execute("USE d; SELECT VALUE COUNT(*) FROM D x WHERE x.v != x.id * 7;")
        .get(0).asInt()).as("records with a wrong value").isZero();
    String plan = sql.execute("USE d; EXPLAIN SELECT VALUE x FROM D x WHERE x.v = 700;")
        .toString();
    assertThat(plan).as("the plan of a lookup by v").contains("Dv").contains("index-search");
    Random r = new Random(5);
    for (int i = 0; i < 20; i++) {
      int id = r.nextInt(ACKED);
      assertThat(sql.execute("USE d; SELECT VALUE x.id FROM D x WHERE x.v = " + (id * 7) + ";")
          .toString()).isEqualTo("[" + id + "]");
    }
    stopCluster();
  }

  /**
   * Moves every port of the sample cluster (the cluster controller's, the nodes' APIs and the
   * node services') to ports free now, in the configuration the install patched, so that the
   * test runs beside another AsterixDB on this host; returns a free port for the feed.
   */
  private int movePortsToFreeOnes() throws IOException {
    Path conf = home.resolve("opt/local/conf/cc.conf");
    java.util.Map<String, java.util.Map<String, String>> ini = ClusterConfigFile.readIni(conf);
    List<Integer> free = FreePorts.take(3);
    ClusterConfigFile.freePorts(2).forEach((section, keys) ->
        ini.computeIfAbsent(section, k -> new java.util.LinkedHashMap<>()).putAll(keys));
    ini.get("nc").put("cluster.port", ini.get("cc").get("cluster.listen.port"));
    ini.get("nc/asterix_nc1").put("ncservice.port", Integer.toString(free.get(0)));
    ini.get("nc/asterix_nc2").put("ncservice.port", Integer.toString(free.get(1)));
    apiPort = Integer.parseInt(ini.get("cc").get("api.port"));
    StringBuilder b = new StringBuilder();
    ini.forEach((section, keys) -> {
      b.append('[').append(section).append("]\n");
      keys.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
      b.append('\n');
    });
    Files.writeString(conf, b.toString());
    Files.writeString(home.resolve("opt/local/conf/red.conf"),
        "[ncservice]\nport=" + free.get(0) + "\n");
    Files.writeString(home.resolve("opt/local/conf/blue.conf"),
        "[ncservice]\nport=" + free.get(1) + "\n");
    return free.get(2);
  }

  private static String record(int id) {
    return "{\"id\": " + id + ", \"v\": " + (id * 7) + "}\n";
  }

  private static Set<Integer> ids(List<JsonNode> rows) {
    Set<Integer> s = new HashSet<>();
    rows.forEach(n -> s.add(n.asInt()));
    return s;
  }

  /** Starts the sample cluster as start-strata-sample-cluster.sh does, and waits for it. */
  private void startCluster(String label) throws Exception {
    Path local = home.resolve("opt/local");
    Path bin = home.resolve("bin");
    start(label + "-blue-service", local, bin.resolve("asterixncservice").toString(), "-logdir",
        "-", "-config-file", local.resolve("conf/blue.conf").toString());
    start(label + "-red-service", local, bin.resolve("asterixncservice").toString(), "-logdir",
        "-", "-config-file", local.resolve("conf/red.conf").toString());
    start(label + "-cc", local, bin.resolve(DistributionInstall.CC_SCRIPT).toString(),
        "-config-file", local.resolve("conf/cc.conf").toString());
    Process wait = new ProcessBuilder(bin.resolve("asterixhelper").toString(),
        "wait_for_cluster", "-clusterport", Integer.toString(apiPort), "-timeout",
        Long.toString(START.toSeconds()))
        .directory(local.toFile()).redirectErrorStream(true)
        .redirectOutput(logs.resolve(label + "-wait.log").toFile()).start();
    started.add(wait.toHandle());
    assertThat(wait.waitFor(START.toSeconds() + 30, TimeUnit.SECONDS)).isTrue();
    assertThat(wait.exitValue()).as("cluster %s: %s", label,
        Files.readString(logs.resolve(label + "-wait.log"))).isZero();
  }

  private void start(String name, Path cwd, String... command) throws IOException {
    Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
        .redirectOutput(logs.resolve(name + ".log").toFile()).start();
    started.add(p.toHandle());
  }

  /** Stops every process this test started (their children first) and waits until they end. */
  private void stopCluster() {
    for (ProcessHandle p : started) {
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    }
    for (ProcessHandle p : started) {
      List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
      all.add(p);
      for (ProcessHandle h : all) {
        try {
          h.onExit().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
          h.destroyForcibly();
        }
      }
    }
    started.clear();
  }

  /** The node controller processes, children of the node services this test started. */
  private List<ProcessHandle> nodeControllers() {
    List<ProcessHandle> out = new ArrayList<>();
    for (ProcessHandle p : started) {
      p.descendants().filter(h -> h.info().commandLine().orElse("").contains("NCDriver"))
          .forEach(out::add);
    }
    return out;
  }

  private static void awaitCount(QueryService sql, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    int seen = -1;
    while (System.nanoTime() < deadline) {
      seen = sql.execute("USE d; SELECT VALUE COUNT(*) FROM D x;").get(0).asInt();
      if (seen >= n) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("the feed stored " + seen + " of " + n + " records in 3 minutes");
  }

  private static Socket connect(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        return new Socket("127.0.0.1", port);
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(250);
      }
    }
  }

  private static void unzip(Path zip, Path into) throws IOException {
    try (InputStream in = Files.newInputStream(zip); ZipInputStream z = new ZipInputStream(in)) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        Path target = into.resolve(e.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("zip entry outside the target: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
          continue;
        }
        Files.createDirectories(target.getParent());
        Files.copy(z, target, StandardCopyOption.REPLACE_EXISTING);
        if (target.getParent().getFileName().toString().equals("bin")) {
          Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
      }
    }
  }
}
