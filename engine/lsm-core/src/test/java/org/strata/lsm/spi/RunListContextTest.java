package org.strata.lsm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.strata.lsm.spi.MergeContext.Capability;

/** The request path that the simulators and the Hyracks adapter share. */
class RunListContextTest {
  /** Records what it is asked to start and merges whole runs at once. */
  static final class Instant extends RunListContext {
    final List<MergeRequest> started = new ArrayList<>();
    long nextId = 100;

    Instant(PolicyHost host, RunList runs) {
      super(host);
      runList(runs);
    }

    @Override
    protected boolean start(MergeRequest request, MergeWindow window) {
      started.add(request);
      long id = nextId++;
      runList(runList().apply(request, List.of(RunListTest.file("m" + id, 0, 9)), id));
      changedAtOnce();
      return true;
    }
  }

  private static final PolicyHost NONE = new PolicyHost("a test model", Set.of(), "");

  @Test
  void acceptedRequestsStartAndRefusedOnesAreCounted() {
    Instant ctx = new Instant(NONE, RunListTest.stack());
    assertThat(ctx.takeChangedAtOnce()).isFalse();
    assertThat(ctx.start(MergeRequest.ofRuns(ctx.runs().subList(1, 3), 2))).isTrue();
    assertThat(ctx.started).containsExactly(new MergeRequest.Runs(List.of(4L, 3L), 2,
        Long.MAX_VALUE));
    assertThat(RunListTest.ids(ctx.runList())).containsExactly(5L, 100L, 2L, 1L);
    assertThat(ctx.takeChangedAtOnce()).isTrue();
    assertThat(ctx.takeChangedAtOnce()).as("cleared when taken").isFalse();
    List<RunInfo> gone = RunListTest.stack().runs().subList(1, 3); // runs 4 and 3 were merged
    assertThat(ctx.start(MergeRequest.ofRuns(gone, 1))).isFalse();
    List<RunInfo> apart = List.of(ctx.runs().get(0), ctx.runs().get(2));
    assertThat(ctx.start(MergeRequest.ofRuns(apart, 1))).isFalse();
    assertThat(ctx.rejectedMerges()).isEqualTo(2);
    assertThat(ctx.started).hasSize(1);
    assertThatThrownBy(() -> ctx.start(MergeRequest.ofRuns(List.of(), 1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void partitionedMergesGoThroughOnlyWhereTheHostOffersThem() {
    Instant without = new Instant(NONE, RunListTest.levels());
    List<ComponentInfo> d = List.of(without.runList().component("d").orElseThrow());
    assertThatThrownBy(() -> without.start(MergeRequest.ofComponents(d, 2, 1000)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(without.capabilities()).isEmpty();
    Instant with = new Instant(new PolicyHost("a ranged model",
        EnumSet.of(Capability.PARTITIONED_RUNS, Capability.KEY_RANGES), ""), RunListTest.levels());
    assertThat(with.start(MergeRequest.ofComponents(d, 2, 1000))).isTrue();
    assertThat(with.started).containsExactly(new MergeRequest.Components(List.of("d"), 2, 1000));
    assertThat(with.start(MergeRequest.ofComponents(d, 2, 1000))).as("d is gone").isFalse();
    assertThat(with.rejectedMerges()).isEqualTo(1);
    assertThat(with.capabilities()).contains(Capability.PARTITIONED_RUNS);
  }
}
