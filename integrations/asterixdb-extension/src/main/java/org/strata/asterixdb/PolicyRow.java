package org.strata.asterixdb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicyFactory;

/**
 * The {@code Metadata.CompactionPolicy} rows Strata adds to AsterixDB: one per Strata merge policy
 * whose main parameters fit AsterixDB's seven {@code merge-policy.parameters} names, each with the
 * mapping from those names to the Strata policy's parameters. AsterixDB requires every name a row
 * declares in a dataset's {@code WITH} clause; the Strata parameters that have no AsterixDB name
 * take Strata's defaults or come from the extension's configuration section ({@link
 * ExtensionSettings}).
 */
public enum PolicyRow {
  /** Mao et al.'s CONSTANT. */
  CONSTANT("strata-constant", "constant", StrataPolicyFactories.Constant.class, "constant",
      param("num-components", "num-components", false)),
  /** Bigtable, as Mao et al. describe it. */
  BIGTABLE("strata-bigtable", "bigtable", StrataPolicyFactories.Bigtable.class,
      param("num-components", "num-components", false)),
  /** HBase's exploring policy, as Mao et al. read it. */
  EXPLORING("strata-exploring", "exploring", StrataPolicyFactories.Exploring.class,
      param("num-components", "num-components", false),
      param("min-merge-component-count", "min", false),
      param("max-merge-component-count", "max", false),
      param("size-ratio", "ratio", false)),
  /** MinLatency (Mathieu et al. via Mao et al.). */
  MIN_LATENCY("strata-min-latency", "min-latency", StrataPolicyFactories.MinLatency.class,
      param("num-components", "num-components", false)),
  /** Binomial (Mathieu et al. via Mao et al.). */
  BINOMIAL("strata-binomial", "binomial", StrataPolicyFactories.Binomial.class,
      param("num-components", "num-components", false)),
  /** AsterixDB's prefix policy, Strata's implementation. */
  PREFIX("strata-prefix", "prefix", StrataPolicyFactories.Prefix.class, "prefix",
      param("max-mergable-component-size", "max-mergable-component-size", false),
      param("max-tolerance-component-count", "max-tolerance-component-count", false)),
  /** Size-tiered (AsterixDB's concurrent, HBase), Luo &amp; Carey section 4.4. */
  SIZE_TIERED("strata-size-tiered", "size-tiered", StrataPolicyFactories.SizeTiered.class,
      param("size-ratio", "size-ratio", false),
      param("min-merge-component-count", "min-merge", false),
      param("max-merge-component-count", "max-merge", false),
      param("max-component-count", "max-component-count", false)),
  /** AsterixDB's own {@code concurrent} policy, Strata's implementation (same names). */
  CONCURRENT("strata-concurrent", "concurrent", StrataPolicyFactories.Concurrent.class,
      "concurrent",
      param("size-ratio", "size-ratio", false),
      param("min-merge-component-count", "min-merge-component-count", false),
      param("max-merge-component-count", "max-merge-component-count", false),
      param("max-component-count", "max-component-count", false)),
  /**
   * AsterixDB master's {@code size-bounded-concurrent}, Strata's implementation; its {@code
   * max-component-size} comes from the extension's section.
   */
  SIZE_BOUNDED_CONCURRENT("strata-size-bounded-concurrent", "size-bounded-concurrent",
      StrataPolicyFactories.SizeBoundedConcurrent.class,
      param("size-ratio", "size-ratio", false),
      param("min-merge-component-count", "min-merge-component-count", false),
      param("max-merge-component-count", "max-merge-component-count", false),
      param("max-component-count", "max-component-count", false)),
  /** Leveling (Luo &amp; Carey 4.2). */
  LEVELING("strata-leveling", "leveling", StrataPolicyFactories.Leveling.class,
      param("size-ratio", "size-ratio", true)),
  /** Tiering (Luo &amp; Carey 4.3). */
  TIERING("strata-tiering", "tiering", StrataPolicyFactories.Tiering.class,
      param("size-ratio", "size-ratio", true)),
  /** Lazy leveling (Dostoevsky). */
  LAZY_LEVELING("strata-lazy-leveling", "lazy-leveling",
      StrataPolicyFactories.LazyLeveling.class, param("size-ratio", "size-ratio", true)),
  /** Never merges. */
  NO_MERGE("strata-no-merge", "no-merge", StrataPolicyFactories.NoMerge.class, "no-merge");

  /**
   * One AsterixDB parameter carrying one Strata parameter.
   *
   * @param asterixName the name in the {@code WITH} clause
   * @param strataName the Strata policy's parameter
   * @param whole true if Strata wants an integer where AsterixDB hands a double ({@code size-ratio}
   *     arrives as {@code 3.0}); a whole number is passed on without its fraction
   */
  public record Param(String asterixName, String strataName, boolean whole) {}

  private final String rowName;
  private final String strataPolicy;
  private final Class<? extends StrataPolicyFactory> factoryClass;
  private final List<Param> params;
  private final String asterixDbOwn;

  PolicyRow(String rowName, String strataPolicy, Class<? extends StrataPolicyFactory> factoryClass,
      Param... params) {
    this(rowName, strataPolicy, factoryClass, null, params);
  }

  PolicyRow(String rowName, String strataPolicy, Class<? extends StrataPolicyFactory> factoryClass,
      String asterixDbOwn, Param... params) {
    this.asterixDbOwn = asterixDbOwn;
    this.rowName = rowName;
    this.strataPolicy = strataPolicy;
    this.factoryClass = factoryClass;
    this.params = List.of(params);
  }

  private static Param param(String asterixName, String strataName, boolean whole) {
    return new Param(asterixName, strataName, whole);
  }

  /** The row's name, what a dataset's {@code merge-policy.name} says. */
  public String rowName() {
    return rowName;
  }

  /**
   * The row of AsterixDB 0.9.8's own implementation of the same policy, taking the same {@code
   * WITH} parameters ({@code concurrent}, {@code prefix}, {@code constant}, {@code no-merge}), for
   * a baseline run; empty where AsterixDB 0.9.8 has none.
   */
  public Optional<String> asterixDbOwn() {
    return Optional.ofNullable(asterixDbOwn);
  }

  /** The Strata merge policy the row runs. */
  public String strataPolicy() {
    return strataPolicy;
  }

  /** The factory class the row names (AsterixDB loads it by name). */
  public Class<? extends StrataPolicyFactory> factoryClass() {
    return factoryClass;
  }

  /** The AsterixDB parameters of the row, each with its Strata parameter. */
  public List<Param> params() {
    return params;
  }

  /** The AsterixDB parameter names the row declares (all required in a {@code WITH} clause). */
  public Set<String> asterixNames() {
    Set<String> s = new TreeSet<>();
    for (Param p : params) {
      s.add(p.asterixName());
    }
    return Collections.unmodifiableSet(s);
  }

  /** The Strata parameters that come from the {@code WITH} clause. */
  public Set<String> mappedStrataNames() {
    Set<String> s = new TreeSet<>();
    for (Param p : params) {
      s.add(p.strataName());
    }
    return s;
  }

  /** The Strata policy's parameters that have no AsterixDB name (they come from the section). */
  public Set<String> sectionNames() {
    MergePolicyFactory f = Plugins.policyFactories().get(strataPolicy);
    Set<String> s = new TreeSet<>(f == null ? Set.of() : f.parameterNames());
    s.removeAll(mappedStrataNames());
    return s;
  }

  /**
   * The Strata parameters carried by a dataset's AsterixDB parameters (values as AsterixDB hands
   * them, strings). Names the row does not declare are left out; the caller checks names first.
   */
  public Map<String, String> strataParameters(Map<String, String> asterix) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Param p : params) {
      String v = asterix.get(p.asterixName());
      if (v != null) {
        out.put(p.strataName(), p.whole() ? wholeNumber(v) : v.strip());
      }
    }
    return out;
  }

  /** {@code 3.0} becomes {@code 3}; anything else is passed on for Strata to judge. */
  static String wholeNumber(String v) {
    String t = v.strip();
    try {
      double d = Double.parseDouble(t);
      if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e9) {
        return Long.toString((long) d);
      }
    } catch (NumberFormatException e) {
      // not a number: Strata's own check names it
    }
    return t;
  }

  /** The row named {@code rowName}, if any. */
  public static Optional<PolicyRow> byName(String rowName) {
    for (PolicyRow r : values()) {
      if (r.rowName.equals(rowName)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** The row that runs Strata policy {@code strataPolicy}, if any. */
  public static Optional<PolicyRow> byStrataPolicy(String strataPolicy) {
    for (PolicyRow r : values()) {
      if (r.strataPolicy.equals(strataPolicy)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** Every row name, in table order. */
  public static List<String> rowNames() {
    List<String> out = new ArrayList<>();
    for (PolicyRow r : values()) {
      out.add(r.rowName);
    }
    return out;
  }

  /**
   * What a {@code WITH} clause for this row must say, for error messages: {@code
   * "parameters": {"size-ratio": <double>}}.
   */
  public String usage() {
    if (params.isEmpty()) {
      return "{\"name\": \"" + rowName + "\", \"parameters\": {}}";
    }
    List<String> ps = new ArrayList<>();
    for (Param p : params) {
      ps.add("\"" + p.asterixName() + "\": <" + p.strataName() + ">");
    }
    return "{\"name\": \"" + rowName + "\", \"parameters\": {" + String.join(", ", ps) + "}}";
  }
}
