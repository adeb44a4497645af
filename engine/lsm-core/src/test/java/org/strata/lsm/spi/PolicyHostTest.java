package org.strata.lsm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.spi.MergeContext.Capability;
import org.strata.lsm.testing.NeedsCapability;

/** Declared capabilities against what a kind of context offers; the engine offers all. */
class PolicyHostTest {
  private static final PolicyHost KEYLESS = new PolicyHost("a key-less model", Set.of(),
      "use the engine");

  @ParameterizedTest
  @EnumSource(Capability.class)
  void theEngineOffersEveryCapability(Capability c) {
    assertThatCode(() -> PolicyHost.ENGINE.check(new NeedsCapability(c)))
        .doesNotThrowAnyException();
    assertThat(PolicyHost.ENGINE.offered()).contains(c);
  }

  @ParameterizedTest
  @EnumSource(Capability.class)
  void aContextLackingACapabilityRefusesAPolicyThatNeedsIt(Capability c) {
    NeedsCapability needs = new NeedsCapability(c);
    assertThatThrownBy(() -> KEYLESS.check(needs))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage("merge-policy '" + needs.name() + "' cannot run on a key-less model: it needs "
            + c.description() + ", which is not modelled there; use the engine");
    PolicyHost offering = new PolicyHost("a partial model", EnumSet.of(c), "");
    assertThatCode(() -> offering.check(needs)).doesNotThrowAnyException();
  }

  /** A factory that keeps the default: it declares nothing. */
  static class Plain implements MergePolicyFactory {
    @Override
    public String name() {
      return "plain";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of();
    }

    @Override
    public MergePolicy create(Map<String, String> parameters) {
      throw new AssertionError("a check creates no policy");
    }
  }

  @Test
  void theMessageSeparatesWhatIsNeededFromWhatIsMissing() {
    MergePolicyFactory triad = new Plain() {
      @Override
      public String name() {
        return "triad-like";
      }

      @Override
      public Set<Capability> requiredCapabilities() {
        return EnumSet.of(Capability.PARTITIONED_RUNS, Capability.KEY_RANGES,
            Capability.KEY_SKETCHES);
      }
    };
    PolicyHost rangesOnly = new PolicyHost("a ranged model",
        EnumSet.of(Capability.PARTITIONED_RUNS, Capability.KEY_RANGES), "");
    assertThatThrownBy(() -> rangesOnly.check(triad)).hasMessage("merge-policy 'triad-like'"
        + " cannot run on a ranged model: it needs partitioned runs, key ranges and key sketches,"
        + " of which key sketches is not modelled there");
    assertThatThrownBy(() -> KEYLESS.check(triad)).hasMessageContaining(
        "it needs partitioned runs, key ranges and key sketches, which are not modelled there");
  }

  @Test
  void aPolicyThatDeclaresNothingRunsEverywhere() {
    Plain plain = new Plain();
    assertThat(plain.requiredCapabilities()).isEmpty();
    assertThatCode(() -> KEYLESS.check(plain)).doesNotThrowAnyException();
  }
}
