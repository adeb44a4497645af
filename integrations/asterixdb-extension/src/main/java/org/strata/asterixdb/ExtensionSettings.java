package org.strata.asterixdb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hyracks.algebricks.common.utils.Pair;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.ini4j.Profile;
import org.strata.asterix.StrataIoSchedulerFactory;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;

/**
 * The keys of the extension's section, {@code [extension/org.strata.asterixdb.StrataExtension]}
 * of AsterixDB's configuration file:
 *
 * <ul>
 *   <li>{@code enabled = true}: AsterixDB's own switch for the extension;
 *   <li>{@code scheduler = greedy} and {@code scheduler.<parameter> = value}: the Strata merge
 *       scheduler of every dataset not named below ({@code single-thread}, {@code fair}, {@code
 *       greedy}, ...), its {@code scope} ({@code index} or {@code node}) and its parameters;
 *   <li>{@code node.<node>.scheduler = ...}, {@code node.<node>.scheduler.<parameter> = ...}: the
 *       same for the datasets of one node controller;
 *   <li>{@code dataset.<dataverse>.<dataset>.scheduler = ...} and its parameters: the same for one
 *       dataset (on every node), ahead of the node's and the default;
 *   <li>{@code policy.<strata policy>.<parameter> = value}: a parameter of a Strata merge policy
 *       that has no AsterixDB name in its {@link PolicyRow} (for example {@code
 *       policy.tiering.preemptive = false}); it applies to every dataset of that policy;
 *   <li>{@code io.write-rate-limit = 64MB}: Strata's I/O budget, bytes per second for each node
 *       controller, shared by every flush, merge and bulk load of every partition of the node,
 *       flushes first ({@link StrataRateLimiterProvider}); 0 (the default) leaves AsterixDB's own
 *       {@code storage.write.rate.limit} in charge.
 * </ul>
 *
 * Node, dataverse and dataset names in keys are matched ignoring case (AsterixDB hands an
 * extension its keys in lower case). A key outside this list, an unknown scheduler or parameter, or
 * a policy parameter that a row takes from the {@code WITH} clause is refused with a message naming
 * the key and what is allowed.
 */
public final class ExtensionSettings {
  private static final Pattern NODE = Pattern.compile("node\\.([^.]+)\\.(scheduler(?:\\..+)?)");
  private static final Pattern DATASET =
      Pattern.compile("dataset\\.([^.]+)\\.([^.]+)\\.(scheduler(?:\\..+)?)");
  private static final Pattern POLICY = Pattern.compile("policy\\.([^.]+)\\.(.+)");

  /** The key of Strata's I/O budget per node, in bytes per second. */
  public static final String WRITE_RATE_LIMIT = "io.write-rate-limit";

  /** The settings of a section with no keys: greedy everywhere, Strata's policy defaults. */
  public static final ExtensionSettings DEFAULTS = parse(List.of());

  private final Map<String, String> defaultScheduler;
  private final Map<String, Map<String, String>> nodeSchedulers;
  private final Map<String, Map<String, String>> datasetSchedulers;
  private final Map<String, Map<String, String>> policyParameters;
  private final long writeRateLimit;

  private ExtensionSettings(Map<String, String> defaultScheduler,
      Map<String, Map<String, String>> nodeSchedulers,
      Map<String, Map<String, String>> datasetSchedulers,
      Map<String, Map<String, String>> policyParameters, long writeRateLimit) {
    this.writeRateLimit = writeRateLimit;
    this.defaultScheduler = defaultScheduler;
    this.nodeSchedulers = nodeSchedulers;
    this.datasetSchedulers = datasetSchedulers;
    this.policyParameters = policyParameters;
  }

  /**
   * Parses and checks the section's keys, as AsterixDB hands them to an extension.
   *
   * @throws InvalidConfigurationException naming the first bad key
   */
  public static ExtensionSettings parse(List<Pair<String, String>> args) {
    Map<String, String> dflt = new TreeMap<>();
    Map<String, Map<String, String>> nodes = new TreeMap<>();
    Map<String, Map<String, String>> datasets = new TreeMap<>();
    Map<String, Map<String, String>> policies = new TreeMap<>();
    long writeRate = 0;
    for (Pair<String, String> kv : args == null ? List.<Pair<String, String>>of() : args) {
      String key = kv.first == null ? "" : kv.first.strip();
      String value = kv.second == null ? "" : kv.second.strip();
      Matcher m;
      if (key.equals("enabled")) {
        continue;
      } else if (key.equals(WRITE_RATE_LIMIT)) {
        writeRate = ByteSize.parse(StrataExtension.SECTION + " key " + key, value).bytes();
      } else if (key.equals("scheduler") || key.startsWith("scheduler.")) {
        putScheduler(dflt, key, value);
      } else if ((m = NODE.matcher(key)).matches()) {
        putScheduler(nodes.computeIfAbsent(m.group(1).toLowerCase(Locale.ROOT),
            k -> new TreeMap<>()), m.group(2), value);
      } else if ((m = DATASET.matcher(key)).matches()) {
        putScheduler(datasets.computeIfAbsent(datasetKey(m.group(1), m.group(2)),
            k -> new TreeMap<>()), m.group(3), value);
      } else if ((m = POLICY.matcher(key)).matches()) {
        String policy = m.group(1);
        String parameter = m.group(2);
        PolicyRow row = PolicyRow.byStrataPolicy(policy).orElseThrow(() ->
            InvalidConfigurationException.of(StrataExtension.SECTION + " key " + key, policy,
                "a Strata policy with an AsterixDB row: " + strataPolicies()));
        if (!row.sectionNames().contains(parameter)) {
          throw InvalidConfigurationException.of(StrataExtension.SECTION + " key " + key,
              parameter, row.sectionNames().isEmpty() ? "none (every parameter of '" + policy
                  + "' comes from the dataset's WITH clause: " + row.usage() + ")"
                  : String.join(", ", row.sectionNames()));
        }
        policies.computeIfAbsent(policy, k -> new TreeMap<>()).put(parameter, value);
      } else {
        throw InvalidConfigurationException.of(StrataExtension.SECTION + " key", key,
            "enabled, " + WRITE_RATE_LIMIT + ", scheduler, scheduler.<parameter>, "
                + "node.<node>.scheduler[.<parameter>], "
                + "dataset.<dataverse>.<dataset>.scheduler[.<parameter>], "
                + "policy.<strata policy>.<parameter>");
      }
    }
    List<Map<String, String>> all = new ArrayList<>();
    all.add(dflt);
    all.addAll(nodes.values());
    all.addAll(datasets.values());
    for (Map<String, String> s : all) {
      new StrataIoSchedulerFactory(s); // an unknown scheduler or parameter fails here
    }
    return new ExtensionSettings(freeze(dflt), freezeAll(nodes), freezeAll(datasets),
        freezeAll(policies), writeRate);
  }

  /** AsterixDB hands the section's keys over in lower case, so names are matched ignoring case. */
  private static String datasetKey(String dataverse, String dataset) {
    return (dataverse + "." + dataset).toLowerCase(Locale.ROOT);
  }

  private static void putScheduler(Map<String, String> into, String key, String value) {
    String k = key.equals("scheduler") ? StrataIoSchedulerFactory.SCHEDULER
        : key.substring("scheduler.".length());
    into.put(k, value);
  }

  private static String strataPolicies() {
    List<String> out = new ArrayList<>();
    for (PolicyRow r : PolicyRow.values()) {
      out.add(r.strataPolicy());
    }
    return String.join(", ", out);
  }

  private static Map<String, String> freeze(Map<String, String> m) {
    return Collections.unmodifiableMap(new TreeMap<>(m));
  }

  private static Map<String, Map<String, String>> freezeAll(Map<String, Map<String, String>> m) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(k, freeze(v)));
    return Collections.unmodifiableMap(out);
  }

  /**
   * The settings of the node controller of {@code ctx}: those its {@link StrataNCApplication}
   * read from its configuration, or {@link #DEFAULTS} when the node runs another application (or
   * there is no context, as in standalone Hyracks).
   */
  public static ExtensionSettings of(INCServiceContext ctx) {
    if (ctx != null && ctx.getControllerService() instanceof NodeControllerService nc
        && nc.getApplication() instanceof StrataNCApplication app) {
      return app.settings();
    }
    return DEFAULTS;
  }

  /**
   * The settings in a controller's configuration: the keys of section {@link
   * StrataExtension#SECTION} as the configuration manager read them from the ini file (AsterixDB
   * 0.9.8 keeps an extension section's keys apart from its own options, and hands an extension
   * none of them through its {@code configure}).
   *
   * @throws InvalidConfigurationException naming the first bad key
   */
  public static ExtensionSettings of(ConfigManager config) {
    Profile.Section section = config.toIni(false).get(StrataExtension.SECTION);
    List<Pair<String, String>> args = new ArrayList<>();
    if (section != null) {
      for (String key : section.keySet()) {
        args.add(new Pair<>(key, section.get(key)));
      }
    }
    return parse(args);
  }

  /**
   * The scheduler properties ({@code scheduler}, {@code scope} and parameters, as {@link
   * StrataIoSchedulerFactory} takes them) for a dataset on a node: the dataset's if set, else
   * the node's, else the default.
   */
  public Map<String, String> schedulerFor(String node, String dataverse, String dataset) {
    Map<String, String> d = datasetSchedulers.get(datasetKey(dataverse, dataset));
    if (d != null) {
      return d;
    }
    Map<String, String> n = nodeSchedulers.get(node == null ? "" : node.toLowerCase(Locale.ROOT));
    return n != null ? n : defaultScheduler;
  }

  /**
   * Strata's I/O budget of each node controller in bytes per second ({@code
   * io.write-rate-limit}), or 0 when the section sets none.
   */
  public long writeRateLimit() {
    return writeRateLimit;
  }

  /** The parameters of Strata policy {@code strataPolicy} set in the section (maybe none). */
  public Map<String, String> policyParameters(String strataPolicy) {
    return policyParameters.getOrDefault(strataPolicy, Map.of());
  }
}
