package org.strata.lsm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one loop that asks a policy again while the run list changes at once. */
class PolicyDriverTest {
  /** Counts calls; each of the first {@code merges} calls "merges at once". */
  static final class Counting implements MergePolicy {
    final int merges;
    int calls;

    Counting(int merges) {
      this.merges = merges;
    }

    @Override
    public void diskComponentAdded(MergeContext index, boolean fullMergeRequested) {
      calls++;
      ((Recorder) index).changed = calls <= merges;
    }

    @Override
    public boolean isMergeLagging(MergeContext index) {
      return false;
    }
  }

  /** A context that reports whether the last call changed its list. */
  static final class Recorder implements MergeContext {
    boolean changed;
    int asked;

    boolean take() {
      asked++;
      boolean c = changed;
      changed = false;
      return c;
    }

    @Override
    public List<RunInfo> runs() {
      return List.of();
    }

    @Override
    public boolean scheduleMerge(List<RunInfo> runs, int outputLevel, long targetFileSize) {
      return false;
    }
  }

  @Test
  void asksAgainWhileTheListChangedAtOnceAndStopsWhenQuiet() {
    Counting policy = new Counting(3);
    Recorder ctx = new Recorder();
    new PolicyDriver("three-merges", policy).diskComponentAdded(ctx, false, ctx::take);
    assertThat(policy.calls).isEqualTo(4); // three calls merged, the fourth did not
    assertThat(ctx.asked).isEqualTo(4);
  }

  @Test
  void callsOnceWhereMergesRunInTheBackground() {
    Counting policy = new Counting(5); // would merge at once, but the context never reports it
    new PolicyDriver("async", policy).diskComponentAdded(new Recorder(), true);
    assertThat(policy.calls).isEqualTo(1);
  }

  @Test
  void failsNamingThePolicyAfterAThousandCalls() {
    Counting policy = new Counting(Integer.MAX_VALUE);
    Recorder ctx = new Recorder();
    PolicyDriver driver = new PolicyDriver("restless", policy);
    assertThatThrownBy(() -> driver.diskComponentAdded(ctx, false, ctx::take))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("merge-policy 'restless'")
        .hasMessageContaining(PolicyDriver.MAX_CALLS + " calls");
    assertThat(policy.calls).isEqualTo(PolicyDriver.MAX_CALLS);
    Counting exactly = new Counting(PolicyDriver.MAX_CALLS - 1);
    new PolicyDriver("just-in-time", exactly).diskComponentAdded(ctx, false, ctx::take);
    assertThat(exactly.calls).isEqualTo(PolicyDriver.MAX_CALLS);
    assertThat(driver.policy()).isSameAs(policy);
  }
}
