package org.strata.asterixdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The AsterixDB configuration (an ini file, in AsterixDB's own sections) of an embedded cluster of
 * one cluster controller and {@code nodes} node controllers on this host, all data under one
 * directory, with Strata's extension and application classes. A user's ini file, if given, is laid
 * over the generated one: a key it sets replaces the generated value, and sections it adds are
 * added, so the same file format configures an embedded cluster and an existing installation.
 *
 * <p>Layout under the directory: {@code cc/} (the cluster controller), {@code <node>/txnlog},
 * {@code <node>/iodevice<i>} (one storage partition each), {@code logs/}, and {@code
 * cluster.conf}, the effective configuration of the last start.
 */
public final class ClusterConfigFile {
  /** The name of the generated configuration file in the cluster directory. */
  public static final String FILE_NAME = "cluster.conf";

  /** The first node's NC API port; node i gets this + i (AsterixDB's 19004, 19005, ...). */
  public static final int FIRST_NC_API_PORT = 19004;

  private final Map<String, Map<String, String>> sections;

  private ClusterConfigFile(Map<String, Map<String, String>> sections) {
    this.sections = sections;
  }

  /**
   * The node names of a cluster of {@code nodes} nodes: {@code asterix_nc1}, {@code asterix_nc2},
   * ...
   */
  public static List<String> nodeNames(int nodes) {
    List<String> names = new ArrayList<>(nodes);
    for (int i = 1; i <= nodes; i++) {
      names.add("asterix_nc" + i);
    }
    return names;
  }

  /**
   * The generated configuration.
   *
   * @param dir the cluster directory (absolute paths are written)
   * @param nodes node controllers, at least 1
   * @param partitionsPerNode storage partitions (I/O devices) of each node, at least 1
   * @param user the user's ini sections laid over the generated ones (may be empty)
   */
  public static ClusterConfigFile of(Path dir, int nodes, int partitionsPerNode,
      Map<String, Map<String, String>> user) {
    if (nodes < 1) {
      throw new IllegalArgumentException("--nodes: " + nodes + " is not allowed; allowed: 1 or"
          + " more");
    }
    if (partitionsPerNode < 1) {
      throw new IllegalArgumentException("partitions per node: " + partitionsPerNode
          + " is not allowed; allowed: 1 or more");
    }
    Path root = dir.toAbsolutePath().normalize();
    Map<String, Map<String, String>> s = new LinkedHashMap<>();
    List<String> names = nodeNames(nodes);
    for (int i = 0; i < nodes; i++) {
      String node = names.get(i);
      Map<String, String> n = section(s, "nc/" + node);
      Path home = root.resolve(node);
      n.put("txn.log.dir", home.resolve("txnlog").toString());
      n.put("core.dump.dir", home.resolve("coredump").toString());
      List<String> devices = new ArrayList<>();
      for (int p = 1; p <= partitionsPerNode; p++) {
        devices.add(home.resolve("iodevice" + p).toString());
      }
      n.put("iodevices", String.join(",", devices));
      n.put("nc.api.port", Integer.toString(FIRST_NC_API_PORT + i));
    }
    Map<String, String> nc = section(s, "nc");
    nc.put("address", "127.0.0.1");
    nc.put("command", "asterixnc");
    nc.put("app.class", StrataNCApplication.class.getName());
    nc.put("storage.buffercache.pagesize", "32KB");
    nc.put("storage.buffercache.size", "64MB");
    nc.put("storage.memorycomponent.pagesize", "32KB");
    nc.put("storage.memorycomponent.globalbudget", "64MB");
    Map<String, String> cc = section(s, "cc");
    cc.put("address", "127.0.0.1");
    cc.put("app.class", StrataCCApplication.class.getName());
    cc.put("heartbeat.period", "2000");
    cc.put("heartbeat.max.misses", "25");
    Map<String, String> common = section(s, "common");
    common.put("log.dir", root.resolve("logs").toString());
    common.put("log.level", "WARN");
    common.put("compiler.framesize", "32KB");
    common.put("compiler.sortmemory", "320KB");
    common.put("compiler.groupmemory", "160KB");
    common.put("compiler.joinmemory", "256KB");
    common.put("compiler.textsearchmemory", "160KB");
    common.put("compiler.windowmemory", "192KB");
    common.put("messaging.frame.size", "4096");
    common.put("messaging.frame.count", "512");
    section(s, StrataExtension.SECTION).put("enabled", "true");
    for (Map.Entry<String, Map<String, String>> e : user.entrySet()) {
      section(s, e.getKey()).putAll(e.getValue());
    }
    // The node controllers dial the cluster controller's cluster port: where the user moved it,
    // they follow (AsterixDB would keep them dialling 1099).
    String clusterPort = s.get("cc").get("cluster.listen.port");
    if (clusterPort != null && !s.get("nc").containsKey("cluster.port")) {
      s.get("nc").put("cluster.port", clusterPort);
    }
    return new ClusterConfigFile(s);
  }

  /**
   * Sections that move every port {@link #fixedPorts} lists to ports free on 127.0.0.1 now, for
   * a cluster beside another one on this host (tests use it): lay them over the generated
   * configuration as the user's. A port found free may still be taken before the cluster binds
   * it; the start's port check then says which.
   */
  public static Map<String, Map<String, String>> freePorts(int nodes) throws IOException {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    List<Integer> ports = FreePorts.take(7 + nodes);
    Map<String, String> cc = section(out, "cc");
    int i = 0;
    for (String key : List.of("client.listen.port", "cluster.listen.port", "web.port",
        "api.port", "active.port", "web.queryinterface.port", "console.listen.port")) {
      cc.put(key, Integer.toString(ports.get(i++)));
    }
    for (String node : nodeNames(nodes)) {
      section(out, "nc/" + node).put("nc.api.port", Integer.toString(ports.get(i++)));
    }
    return out;
  }

  private static Map<String, String> section(Map<String, Map<String, String>> s, String name) {
    return s.computeIfAbsent(name, k -> new LinkedHashMap<>());
  }

  /** Every section with its keys, in file order. */
  public Map<String, Map<String, String>> sections() {
    return sections;
  }

  /** A key of a section, or null. */
  public String get(String section, String key) {
    Map<String, String> m = sections.get(section);
    return m == null ? null : m.get(key);
  }

  /** The section of node {@code node} with the keys of {@code [nc]} it does not set itself. */
  public Map<String, String> node(String node) {
    Map<String, String> m = new LinkedHashMap<>(sections.getOrDefault("nc", Map.of()));
    m.putAll(sections.getOrDefault("nc/" + node, Map.of()));
    return m;
  }

  /** The node names, in the order of their sections. */
  public List<String> nodes() {
    List<String> out = new ArrayList<>();
    for (String name : sections.keySet()) {
      if (name.startsWith("nc/")) {
        out.add(name.substring(3));
      }
    }
    return out;
  }

  /** The configuration as ini text. */
  public String text() {
    StringBuilder b = new StringBuilder();
    b.append("; AsterixDB configuration of an embedded cluster with Strata's extension.\n");
    b.append("; Written at every start; edit the file given with --config instead.\n");
    for (Map.Entry<String, Map<String, String>> e : sections.entrySet()) {
      b.append('\n').append('[').append(e.getKey()).append("]\n");
      e.getValue().forEach((k, v) -> b.append(k).append(" = ").append(v).append('\n'));
    }
    return b.toString();
  }

  /** Writes the configuration to {@code dir/cluster.conf} and returns that path. */
  public Path write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path f = dir.resolve(FILE_NAME);
    Path tmp = dir.resolve(FILE_NAME + ".tmp");
    Files.writeString(tmp, text(), StandardCharsets.UTF_8);
    Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return f;
  }

  /**
   * Reads an ini file into sections of keys: {@code [section]} lines, {@code key = value} lines,
   * and {@code ;} or {@code #} comments. A key outside a section, a line that is neither, or a
   * key given twice in one section is refused naming the file and line.
   */
  public static Map<String, Map<String, String>> readIni(Path file) throws IOException {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    Map<String, String> current = null;
    int lineNo = 0;
    for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      lineNo++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith(";") || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[")) {
        if (!line.endsWith("]") || line.length() < 3) {
          throw new IllegalArgumentException(file + ":" + lineNo + ": '" + line
              + "' is not a section header; allowed: [name]");
        }
        current = section(out, line.substring(1, line.length() - 1).strip());
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(file + ":" + lineNo + ": '" + line
            + "' is not allowed; allowed: [section], key = value, or a ; comment");
      }
      if (current == null) {
        throw new IllegalArgumentException(file + ":" + lineNo + ": key '"
            + line.substring(0, eq).strip() + "' is outside any section; put it under [nc],"
            + " [cc], [common] or [" + StrataExtension.SECTION + "]");
      }
      String key = line.substring(0, eq).strip();
      if (current.put(key, line.substring(eq + 1).strip()) != null) {
        throw new IllegalArgumentException(file + ":" + lineNo + ": key '" + key
            + "' is given twice in its section");
      }
    }
    return out;
  }

  /**
   * The ports the cluster listens on that AsterixDB fixes, with what each is for and the key that
   * moves it (the others are ephemeral).
   */
  public Map<Integer, String> fixedPorts() {
    Map<Integer, String> ports = new LinkedHashMap<>();
    ports.put(intOr("cc", "client.listen.port", 1098),
        "the cluster controller's client port, [cc] client.listen.port");
    ports.put(intOr("cc", "cluster.listen.port", 1099),
        "the cluster controller's cluster port, [cc] cluster.listen.port");
    ports.put(intOr("cc", "web.port", 19001), "the legacy web interface, [cc] web.port");
    ports.put(intOr("cc", "api.port", 19002), "the SQL++ query service, [cc] api.port");
    ports.put(intOr("cc", "active.port", 19003), "the active (feed) manager, [cc] active.port");
    ports.put(intOr("cc", "web.queryinterface.port", 19006),
        "the query web interface, [cc] web.queryinterface.port");
    ports.put(intOr("cc", "console.listen.port", 16001),
        "the cluster controller's console, [cc] console.listen.port");
    for (String node : nodes()) {
      String p = node(node).get("nc.api.port");
      ports.put(p == null ? 19004 : Integer.parseInt(p.strip()),
          String.format(Locale.ROOT, "the node API of %s, [nc/%s] nc.api.port", node, node));
    }
    return ports;
  }

  private int intOr(String section, String key, int dflt) {
    String v = get(section, key);
    return v == null ? dflt : Integer.parseInt(v.strip());
  }
}
