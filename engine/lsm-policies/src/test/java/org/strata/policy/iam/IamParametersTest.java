package org.strata.policy.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;

/** {@code lsa} and {@code iam} are found by name and refuse bad parameters clearly. */
class IamParametersTest {
  private static MergePolicy make(String name, Map<String, String> p) {
    return Plugins.mergePolicy(new NamedPlugin(name, p));
  }

  @Test
  void bothAreRegisteredWithTheirRules() {
    AppendMergeTreePolicy lsa = (AppendMergeTreePolicy) make("lsa", Map.of("fanout", "8"));
    assertThat(lsa.rule()).isSameAs(ChildRule.LSA);
    assertThat(lsa.fanout()).isEqualTo(8);
    AppendMergeTreePolicy iam = (AppendMergeTreePolicy) make("iam",
        Map.of("mixed-level", "3", "max-sequences", "2"));
    assertThat(iam.rule()).isInstanceOf(IamRule.class);
    assertThat(make("iam", Map.of("cache-size", "512MB", "cache-share", "0.5")))
        .isInstanceOf(AppendMergeTreePolicy.class);
  }

  @Test
  void badValuesAreRefusedNamingWhatIsAllowed() {
    assertThatThrownBy(() -> make("iam", Map.of()))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("cache-size");
    assertThatThrownBy(() -> make("iam", Map.of("mixed-level", "0")))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("mixed-level").hasMessageContaining("auto, or a level from 1");
    assertThatThrownBy(() -> make("iam", Map.of("mixed-level", "2", "cache-size", "1GB")))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("only with mixed-level=auto");
    assertThatThrownBy(() -> make("iam", Map.of("cache-size", "1GB", "max-sequences", "2")))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("needs a fixed mixed-level");
    assertThatThrownBy(() -> make("lsa", Map.of("fanout", "1")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("fanout");
    assertThatThrownBy(() -> make("lsa", Map.of("node-size", "1KB")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("node-size");
    assertThatThrownBy(() -> make("lsa", Map.of("mixed-level", "2")))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("unknown parameter 'mixed-level'");
    assertThatThrownBy(() -> make("iam", Map.of("cache-size", "1GB", "cache-share", "2")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("cache-share");
  }
}
