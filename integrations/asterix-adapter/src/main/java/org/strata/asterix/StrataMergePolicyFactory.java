package org.strata.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicyFactory;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicyFactory;

/**
 * A Hyracks merge policy factory named {@value #NAME} that runs any Strata merge policy. The
 * properties are AsterixDB's {@code merge-policy} {@code parameters}: {@value #POLICY} names the
 * Strata policy ({@code binomial}, {@code tiering}, {@code size-tiered}, ...), the optional
 * {@value #SIZE_MEASURE} chooses how run sizes are measured ({@code flushed-bytes}, the default,
 * or {@code file-bytes}; see {@link HyracksMergeContext}), and every other property is a parameter
 * of that policy, with Strata's names and defaults:
 *
 * <pre>{"name": "strata", "parameters": {"policy": "tiering", "size-ratio": "3"}}</pre>
 *
 * <p>An unknown policy name or a bad parameter fails in {@link #createMergePolicy} with the same
 * {@link InvalidConfigurationException} message Strata gives for its own configuration files, and
 * so does a policy that needs partitioned runs, key ranges or key sketches, which Hyracks
 * components do not have ({@link HyracksMergeContext#HOST}). The
 * factory itself holds no state (Hyracks hands the properties to every call), so its JSON form is
 * only its class identifier.
 */
public final class StrataMergePolicyFactory implements ILSMMergePolicyFactory {
  private static final long serialVersionUID = 1L;

  /** The factory's name, as AsterixDB's compaction policy metadata would list it. */
  public static final String NAME = "strata";

  /** The property that names the Strata merge policy. */
  public static final String POLICY = "policy";

  /** The property that chooses how run sizes are measured. */
  public static final String SIZE_MEASURE = "size-measure";

  @Override
  public String getName() {
    return NAME;
  }

  /**
   * {@value #POLICY}, {@value #SIZE_MEASURE} and every parameter name of every Strata merge policy
   * on the class path. Only {@value #POLICY} is required; a parameter the chosen policy does not
   * know is rejected by it.
   */
  @Override
  public Set<String> getPropertiesNames() {
    Set<String> names = new TreeSet<>();
    names.add(POLICY);
    names.add(SIZE_MEASURE);
    for (MergePolicyFactory f : Plugins.policyFactories().values()) {
      names.addAll(f.parameterNames());
    }
    return Collections.unmodifiableSet(names);
  }

  /**
   * Creates the Hyracks policy for one index (Hyracks calls this once per index instance).
   *
   * @param properties {@value #POLICY} and the policy's parameters, values as strings
   * @param ctx unused; may be null (standalone Hyracks)
   * @throws InvalidConfigurationException if {@value #POLICY} is missing, names no Strata policy
   *     or one that cannot run on Hyracks components, or a parameter is unknown to that policy or
   *     invalid
   */
  @Override
  public ILSMMergePolicy createMergePolicy(Map<String, String> properties, INCServiceContext ctx) {
    return new StrataMergePolicy(choice(properties));
  }

  /**
   * A Strata policy with its parameters, and how its run sizes are measured.
   *
   * @param plugin the policy and its parameters
   * @param measure the size measure
   */
  record Choice(NamedPlugin plugin, HyracksMergeContext.SizeMeasure measure) {}

  /** Splits the properties into the policy, its parameters and the size measure; validates all. */
  static Choice choice(Map<String, String> properties) {
    Map<String, String> parameters = new HashMap<>(properties == null ? Map.of() : properties);
    String measureName = parameters.remove(SIZE_MEASURE);
    String name = parameters.remove(POLICY);
    if (name == null || name.isBlank()) {
      throw new InvalidConfigurationException("merge-policy '" + NAME + "': missing parameter '"
          + POLICY + "'; allowed: " + String.join(", ", Plugins.policyFactories().keySet()));
    }
    NamedPlugin plugin = new NamedPlugin(name.trim(), new TreeMap<>(parameters));
    // Validates the name, every parameter and what the policy needs now, not at first flush.
    Plugins.mergePolicy(plugin, HyracksMergeContext.HOST);
    HyracksMergeContext.SizeMeasure measure;
    if (measureName == null || measureName.trim().equals("flushed-bytes")) {
      measure = HyracksMergeContext.SizeMeasure.FLUSHED_BYTES;
    } else if (measureName.trim().equals("file-bytes")) {
      measure = HyracksMergeContext.SizeMeasure.FILE_BYTES;
    } else {
      throw InvalidConfigurationException.of("merge-policy '" + NAME + "' parameter "
          + SIZE_MEASURE, measureName, "file-bytes, flushed-bytes");
    }
    return new Choice(plugin, measure);
  }

  @Override
  public JsonNode toJson(IPersistedResourceRegistry registry) {
    ObjectNode json = registry.getClassIdentifier(getClass(), serialVersionUID);
    return json;
  }

  /** The JSON counterpart of {@link #toJson}, as Hyracks' persisted resource registry calls it. */
  @SuppressWarnings("unused")
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new StrataMergePolicyFactory();
  }

  @Override
  public String toString() {
    return NAME;
  }
}
