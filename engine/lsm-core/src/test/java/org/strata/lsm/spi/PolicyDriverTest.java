package org.strata.lsm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one loop that asks a policy for merges, hands them to the host in order, tells the policy
 * which started, and asks again while the run list changed at once.
 */
class PolicyDriverTest {
  private static final MergeRequest A = new MergeRequest.Runs(List.of(1L, 2L), 1, 10);
  private static final MergeRequest B = new MergeRequest.Runs(List.of(3L), 2, 10);

  /** Returns {@code answer} on each call and records what the host told it started. */
  static final class Scripted implements MergePolicy {
    final List<MergeRequest> answer;
    final List<MergeRequest> started = new ArrayList<>();
    int calls;

    Scripted(List<MergeRequest> answer) {
      this.answer = answer;
    }

    @Override
    public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
      calls++;
      return answer;
    }

    @Override
    public void mergeStarted(MergeRequest request) {
      started.add(request);
    }

    @Override
    public boolean isMergeLagging(MergeContext index) {
      return false;
    }
  }

  /**
   * A host that accepts what is not in {@code refused}, and reports a change at once for the
   * first {@code changes} questions.
   */
  static final class Recorder implements MergeContext, PolicyDriver.Host {
    final List<MergeRequest> offered = new ArrayList<>();
    final List<MergeRequest> refused;
    final int changes;
    int asked;

    Recorder(int changes, MergeRequest... refused) {
      this.changes = changes;
      this.refused = List.of(refused);
    }

    @Override
    public List<RunInfo> runs() {
      return List.of();
    }

    @Override
    public boolean start(MergeRequest request) {
      offered.add(request);
      return !refused.contains(request);
    }

    @Override
    public boolean takeChangedAtOnce() {
      return ++asked <= changes;
    }
  }

  @Test
  void offersTheRequestsInOrderAndTellsThePolicyOnlyOfThoseStarted() {
    Scripted policy = new Scripted(List.of(A, B));
    Recorder host = new Recorder(0, A);
    List<MergeRequest> started = new PolicyDriver("two", policy)
        .diskComponentAdded(host, false, host);
    assertThat(host.offered).containsExactly(A, B);
    assertThat(started).containsExactly(B);
    assertThat(policy.started).containsExactly(B);
    assertThat(policy.calls).isEqualTo(1);
  }

  @Test
  void asksAgainWhileTheListChangedAtOnceAndStopsWhenQuiet() {
    Scripted policy = new Scripted(List.of(A));
    Recorder host = new Recorder(3);
    new PolicyDriver("three-merges", policy).diskComponentAdded(host, false, host);
    assertThat(policy.calls).isEqualTo(4); // three calls changed the list, the fourth did not
    assertThat(host.asked).isEqualTo(4);
    assertThat(policy.started).hasSize(4);
  }

  @Test
  void callsOnceWhereMergesRunInTheBackground() {
    Scripted policy = new Scripted(List.of(A));
    PolicyDriver.Host background = request -> true; // never reports a change at once
    Recorder view = new Recorder(0);
    new PolicyDriver("async", policy).diskComponentAdded(view, true, background);
    assertThat(policy.calls).isEqualTo(1);
  }

  @Test
  void aPolicyThatReturnsNullIsNamed() {
    Scripted policy = new Scripted(null);
    Recorder host = new Recorder(0);
    assertThatThrownBy(() -> new PolicyDriver("careless", policy)
        .diskComponentAdded(host, false, host))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("merge-policy 'careless' returned null");
  }

  @Test
  void failsNamingThePolicyAfterTheMostCalls() {
    Scripted policy = new Scripted(List.of());
    Recorder host = new Recorder(Integer.MAX_VALUE);
    PolicyDriver driver = new PolicyDriver("restless", policy);
    assertThatThrownBy(() -> driver.diskComponentAdded(host, false, host))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("merge-policy 'restless'")
        .hasMessageContaining(PolicyDriver.MAX_CALLS + " calls");
    assertThat(policy.calls).isEqualTo(PolicyDriver.MAX_CALLS);
    Scripted exactly = new Scripted(List.of());
    Recorder lastQuiet = new Recorder(PolicyDriver.MAX_CALLS - 1);
    new PolicyDriver("just-in-time", exactly).diskComponentAdded(lastQuiet, false, lastQuiet);
    assertThat(exactly.calls).isEqualTo(PolicyDriver.MAX_CALLS);
    assertThat(driver.policy()).isSameAs(policy);
  }
}
