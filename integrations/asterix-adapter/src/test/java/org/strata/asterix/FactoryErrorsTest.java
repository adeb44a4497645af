package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Method;
import java.util.Map;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;

/** Bad names and parameters through the Hyracks factories fail with Strata's own messages. */
class FactoryErrorsTest {
  private final StrataMergePolicyFactory factory = new StrataMergePolicyFactory();

  private static String strataMessage(Runnable r) {
    try {
      r.run();
    } catch (InvalidConfigurationException e) {
      return e.getMessage();
    }
    throw new AssertionError("Strata accepted it");
  }

  @Test
  void unknownPolicyFailsAsInStrata() {
    String expected = strataMessage(() -> Plugins.mergePolicy(new NamedPlugin("levelled",
        Map.of())));
    assertThatThrownBy(() -> factory.createMergePolicy(Map.of("policy", "levelled"), null))
        .isInstanceOf(InvalidConfigurationException.class).hasMessage(expected)
        .hasMessageContaining("'levelled'").hasMessageContaining("tiering");
  }

  @Test
  void badParameterFailsAsInStrata() {
    String expected = strataMessage(() -> Plugins.mergePolicy(new NamedPlugin("binomial",
        Map.of("num-components", "0"))));
    assertThatThrownBy(() -> factory.createMergePolicy(
        Map.of("policy", "binomial", "num-components", "0"), null))
        .isInstanceOf(InvalidConfigurationException.class).hasMessage(expected)
        .hasMessageContaining("num-components");
    String unknown = strataMessage(() -> Plugins.mergePolicy(new NamedPlugin("binomial",
        Map.of("size-ratio", "3"))));
    assertThatThrownBy(() -> factory.createMergePolicy(
        Map.of("policy", "binomial", "size-ratio", "3"), null))
        .isInstanceOf(InvalidConfigurationException.class).hasMessage(unknown)
        .hasMessageContaining("unknown parameter 'size-ratio'");
  }

  @Test
  void missingPolicyAndBadSizeMeasureAreNamed() {
    assertThatThrownBy(() -> factory.createMergePolicy(Map.of("num-components", "4"), null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("missing parameter 'policy'").hasMessageContaining("binomial");
    assertThatThrownBy(() -> factory.createMergePolicy(
        Map.of("policy", "binomial", "size-measure", "pages"), null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("size-measure").hasMessageContaining("'pages'")
        .hasMessageContaining("file-bytes, flushed-bytes");
  }

  @Test
  void policiesThatNeedPartitionedRunsAreRefusedAtCreationAndTheRestAccepted() {
    for (String name : java.util.List.of("partitioned-leveling", "triad-disk", "lsa", "iam")) {
      assertThat(Plugins.policyFactories().get(name).requiredCapabilities()).as(name)
          .isNotEmpty();
    }
    for (String name : Plugins.policyFactories().keySet()) {
      // partitioned-leveling, triad-disk, lsa, iam (and test policies that need a capability)
      if (!Plugins.policyFactories().get(name).requiredCapabilities().isEmpty()) {
        // iam's parameters are checked first; with valid ones the capability refusal shows
        Map<String, String> props = name.equals("iam")
            ? Map.of("policy", name, "mixed-level", "2") : Map.of("policy", name);
        assertThatThrownBy(() -> factory.createMergePolicy(props, null))
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessageContaining("'" + name + "' cannot run on Hyracks components");
      } else {
        assertThat(factory.createMergePolicy(Map.of("policy", name), null)).as(name).isNotNull();
      }
    }
  }

  @Test
  void configureValidatesLikeTheFactory() {
    var policy = factory.createMergePolicy(Map.of("policy", "binomial"), null);
    assertThatThrownBy(() -> policy.configure(Map.of("policy", "nope")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("'nope'");
  }

  @Test
  void propertiesNamesCoverEveryPolicyParameter() {
    assertThat(factory.getName()).isEqualTo("strata");
    assertThat(factory.getPropertiesNames()).contains("policy", "size-measure", "num-components",
        "size-ratio", "max-component-count");
  }

  @Test
  void badSchedulerNameParameterAndScopeFailAsInStrata() {
    String expected = strataMessage(() -> Plugins.schedulerFactory(new NamedPlugin("greediest",
        Map.of())));
    assertThatThrownBy(() -> new StrataIoSchedulerFactory(Map.of("scheduler", "greediest")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessage(expected);
    String badK = strataMessage(() -> Plugins.mergeScheduler(new NamedPlugin("greedy",
        Map.of("max-concurrent-merges", "0"))));
    assertThatThrownBy(() -> new StrataIoSchedulerFactory(
        Map.of("scheduler", "greedy", "max-concurrent-merges", "0")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessage(badK);
    assertThatThrownBy(() -> new StrataIoSchedulerFactory(Map.of("scope", "cluster")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("'cluster'")
        .hasMessageContaining("index, node");
    assertThat(new StrataIoSchedulerFactory(Map.of()).getName()).isEqualTo("strata-greedy");
  }

  @Test
  void nodeScopeGreedyTakesHyracksMergeLimitUnlessGiven() throws Exception {
    StrataIoScheduler s = (StrataIoScheduler) new StrataIoSchedulerFactory(
        Map.of("scope", "node")).createIoScheduler(Thread::new, null, 2, 8, 3);
    StrataIoScheduler given = (StrataIoScheduler) new StrataIoSchedulerFactory(
        Map.of("scope", "node", "max-concurrent-merges", "1"))
        .createIoScheduler(Thread::new, null, 2, 8, 3);
    try {
      assertThat(s.scheduler().parameters()).containsEntry("max-concurrent-merges", "3");
      assertThat(given.scheduler().parameters()).containsEntry("max-concurrent-merges", "1");
    } finally {
      s.close();
      given.close();
    }
  }

  /** A minimal persisted-resource registry: class name in, {@code fromJson} out. */
  static final class Registry implements IPersistedResourceRegistry {
    private final ObjectMapper mapper = new ObjectMapper();

    @Override
    public ObjectNode getClassIdentifier(Class<? extends IJsonSerializable> c, long version) {
      ObjectNode n = mapper.createObjectNode();
      n.put("@class", c.getName());
      n.put("@version", version);
      return n;
    }

    @Override
    public IJsonSerializable deserialize(JsonNode json) {
      try {
        Class<?> c = Class.forName(json.get("@class").asText());
        Method m = c.getMethod("fromJson", IPersistedResourceRegistry.class, JsonNode.class);
        return (IJsonSerializable) m.invoke(null, this, json);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public IJsonSerializable deserializeOrDefault(JsonNode json,
        Class<? extends IJsonSerializable> c) {
      return deserialize(json);
    }
  }

  @Test
  void factoriesRoundTripThroughTheirJsonForm() throws Exception {
    Registry registry = new Registry();
    assertThat(registry.deserialize(factory.toJson(registry)))
        .isInstanceOf(StrataMergePolicyFactory.class);
    StrataPageWriteCallbackFactory pw = new StrataPageWriteCallbackFactory(5_000_000, 4096);
    StrataPageWriteCallbackFactory back =
        (StrataPageWriteCallbackFactory) registry.deserialize(pw.toJson(registry));
    assertThat(back.throttle().bytesPerSecond()).isEqualTo(5_000_000);
    assertThat(back.forceBytes()).isEqualTo(4096);
    StrataIoSchedulerProvider provider = new StrataIoSchedulerProvider(
        Map.of("scheduler", "fair", "scope", "node"));
    StrataIoSchedulerProvider p2 =
        (StrataIoSchedulerProvider) registry.deserialize(provider.toJson(registry));
    StrataIoScheduler s = (StrataIoScheduler) p2.getIoScheduler(null);
    try {
      assertThat(s.scheduler().name()).isEqualTo("fair");
      assertThat(s.scope()).isEqualTo(StrataIoScheduler.Scope.NODE);
      assertThat(p2.getIoScheduler(null)).isSameAs(s);
    } finally {
      s.close();
    }
    assertThatThrownBy(() -> new StrataPageWriteCallbackFactory(-1, 0))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("write-rate");
  }
}
