package org.strata.asterixdb;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicyFactory;
import org.strata.asterix.StrataMergePolicyFactory;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The Hyracks merge policy factory behind one {@link PolicyRow}: AsterixDB finds it by the row's
 * class name, checks a dataset's {@code merge-policy.parameters} against {@link
 * #getPropertiesNames} at DDL time, and calls {@link #createMergePolicy} on every node controller
 * for every index of the dataset. The factory maps AsterixDB's parameter names to the Strata
 * policy's, adds the policy's parameters set in the extension's section ({@link
 * ExtensionSettings}), and hands the result to the adapter's {@link StrataMergePolicyFactory}, so
 * the policy runs exactly as in the adapter. It holds no state: its JSON form is its class.
 */
public abstract class StrataPolicyFactory implements ILSMMergePolicyFactory {
  private static final long serialVersionUID = 1L;

  /** The row this factory serves. */
  public abstract PolicyRow row();

  @Override
  public final String getName() {
    return row().rowName();
  }

  @Override
  public final Set<String> getPropertiesNames() {
    return row().asterixNames();
  }

  /**
   * Creates the policy of one index.
   *
   * @param configuration the dataset's {@code merge-policy.parameters}, values as strings
   * @param ctx the node controller's context; its configuration holds the extension's section
   * @throws InvalidConfigurationException if a name is not the row's or Strata rejects a value,
   *     with a message naming the row and what is allowed
   */
  @Override
  public final ILSMMergePolicy createMergePolicy(Map<String, String> configuration,
      INCServiceContext ctx) {
    return create(configuration, ExtensionSettings.of(ctx));
  }

  /**
   * Creates the policy for a dataset's parameters and the extension's settings.
   *
   * @throws InvalidConfigurationException as for {@link #createMergePolicy}
   */
  public final ILSMMergePolicy create(Map<String, String> configuration,
      ExtensionSettings settings) {
    Map<String, String> props = strataProperties(configuration, settings);
    try {
      return new StrataMergePolicyFactory().createMergePolicy(props, null);
    } catch (InvalidConfigurationException e) {
      PolicyRow row = row();
      throw new InvalidConfigurationException("merge-policy '" + row.rowName()
          + "' (Strata policy '" + row.strataPolicy() + "'): " + e.getMessage()
          + "; the dataset's WITH clause must say " + row.usage());
    }
  }

  /**
   * The adapter's properties for a dataset's parameters: {@code policy}, the mapped parameters,
   * and the policy's parameters from the section (the dataset's win over the section's).
   *
   * @throws InvalidConfigurationException if a name is missing or not the row's
   */
  public final Map<String, String> strataProperties(Map<String, String> configuration,
      ExtensionSettings settings) {
    PolicyRow row = row();
    Map<String, String> given = configuration == null ? Map.of() : configuration;
    Set<String> unknown = new TreeSet<>(given.keySet());
    unknown.removeAll(row.asterixNames());
    Set<String> missing = new TreeSet<>(row.asterixNames());
    missing.removeAll(given.keySet());
    if (!unknown.isEmpty() || !missing.isEmpty()) {
      throw new InvalidConfigurationException("merge-policy '" + row.rowName() + "': "
          + (unknown.isEmpty() ? "" : "parameter(s) " + unknown + " not allowed; ")
          + (missing.isEmpty() ? "" : "missing parameter(s) " + missing + "; ")
          + "allowed: exactly " + row.usage());
    }
    Map<String, String> props = new LinkedHashMap<>(settings.policyParameters(row.strataPolicy()));
    props.putAll(row.strataParameters(given));
    props.put(StrataMergePolicyFactory.POLICY, row.strataPolicy());
    return props;
  }

  @Override
  public final JsonNode toJson(IPersistedResourceRegistry registry) throws HyracksDataException {
    return registry.getClassIdentifier(getClass(), serialVersionUID);
  }

  @Override
  public String toString() {
    return getName();
  }
}
