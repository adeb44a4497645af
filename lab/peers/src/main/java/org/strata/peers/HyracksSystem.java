package org.strata.peers;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.strata.lsm.config.NamedPlugin;
import org.strata.twophase.TwoPhaseConfig;

/**
 * {@code {"name": "hyracks", "merge-policy": {"name": "prefix", "parameters": {...}}, "label":
 * ...}}: a standalone Hyracks LSM B+-tree with one of Hyracks' own merge policies ({@code prefix}
 * by default, {@link HyracksTarget#defaultPolicy}).
 *
 * @param label the label (default {@code hyracks-<policy>})
 * @param mergePolicy Hyracks' merge policy and its parameters, or null for the default
 */
public record HyracksSystem(@JsonProperty("label") String label,
    @JsonProperty("merge-policy") PolicySpec mergePolicy) implements SystemSpec {

  /**
   * A Hyracks merge policy.
   *
   * @param name {@code prefix}, {@code constant}, {@code concurrent} or {@code no-merge}
   * @param parameters the policy's properties
   */
  public record PolicySpec(@JsonProperty(value = "name", required = true) String name,
      @JsonProperty("parameters") Map<String, String> parameters) {
    public PolicySpec {
      parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }
  }

  public HyracksSystem {
    label = label == null ? "hyracks-" + (mergePolicy == null ? "prefix" : mergePolicy.name())
        : label;
  }

  @Override
  public String system() {
    return "hyracks";
  }

  @Override
  public List<Run> targets(TwoPhaseConfig base, boolean loadOnly) {
    NamedPlugin policy = mergePolicy == null
        ? HyracksTarget.defaultPolicy(base.dataset().store().memoryComponent().size().bytes())
        : new NamedPlugin(mergePolicy.name(), mergePolicy.parameters());
    return List.of(new Run(base, new HyracksTarget(label, base.dataset().store(), policy,
        base.load().memoryComponent().bytes())));
  }
}
