package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.StallCause;
import org.strata.lsm.engine.WriteAdmission.Action;
import org.strata.lsm.config.FlowControl.Admission;
import org.strata.lsm.engine.WriteAdmission.Reason;
import org.strata.lsm.engine.WriteAdmission.Decision;
import org.strata.lsm.engine.WriteAdmission.Memory;
import org.strata.lsm.engine.WriteAdmission.State;
import org.strata.lsm.engine.WriteAdmission.WaitFor;

/** {@link WriteAdmission} on its own: every mode, every cause and the admit case, no engine. */
class WriteAdmissionTest {
  private static final Throwable FLUSH_ERROR = new IOException("disk full");
  private static final Throwable BACKGROUND = new IOException("background flush failed");

  /** A writer that sees nothing wrong: 10 components of a constraint of 20, memory not full. */
  private static State calm() {
    return new State(null, 0, 10, 20, Memory.TREE, false, true, null, false, false);
  }

  private static State with(State s, Throwable background, long unpaced, int disk,
      Memory memory, boolean full, boolean canSeal, Throwable flushError, boolean violated,
      boolean pending) {
    return new State(background, unpaced, disk, s.componentConstraint(), memory, full, canSeal,
        flushError, violated, pending);
  }

  @ParameterizedTest
  @EnumSource(Admission.class)
  void admitsWhenNothingStopsTheWrite(Admission mode) {
    Decision d = new WriteAdmission(mode, 0.8).decide(calm());
    assertThat(d.action()).isEqualTo(Action.ADMIT);
    assertThat(d.reason()).isNull();
    assertThat(d.waitFor()).isEqualTo(WaitFor.NOTHING);
    assertThat(d.stopped()).isFalse();
  }

  @Test
  void asapNeverPaces() {
    WriteAdmission a = new WriteAdmission(Admission.ASAP, 0.8);
    State s = with(calm(), null, 100, 19, Memory.TREE, false, true, null, false, false);
    assertThat(a.decide(s).action()).isEqualTo(Action.ADMIT);
  }

  @Test
  void limitPacesEveryUnpacedWriteForItsBytes() {
    WriteAdmission a = new WriteAdmission(Admission.LIMIT, 0.8);
    State s = with(calm(), null, 123, 0, Memory.TREE, false, true, null, false, false);
    Decision d = a.decide(s);
    assertThat(d.action()).isEqualTo(Action.PACE);
    assertThat(d.reason()).isEqualTo(Reason.RATE_LIMIT);
    assertThat(d.bytes()).isEqualTo(123);
    assertThat(d.waitFor()).isEqualTo(WaitFor.RATE_LIMITER);
    assertThat(Reason.RATE_LIMIT.stallCause()).as("pacing is not a stall").isNull();
    // Once paced, the same write is admitted.
    assertThat(a.decide(with(s, null, 0, 0, Memory.TREE, false, true, null, false, false))
        .action()).isEqualTo(Action.ADMIT);
  }

  @Test
  void gradedPacesOnlyFromTheSlowdownShareOfTheConstraint() {
    WriteAdmission a = new WriteAdmission(Admission.GRADED, 0.8);
    // constraint 20: 0.8 * 20 = 16 components start the slowdown
    assertThat(a.decide(with(calm(), null, 10, 15, Memory.TREE, false, true, null, false, false))
        .action()).isEqualTo(Action.ADMIT);
    assertThat(a.decide(with(calm(), null, 10, 16, Memory.TREE, false, true, null, false, false))
        .action()).isEqualTo(Action.PACE);
    State noConstraint = new State(null, 10, 1000, Integer.MAX_VALUE, Memory.TREE, false, true,
        null, false, false);
    assertThat(a.decide(noConstraint).action()).as("a policy without a constraint")
        .isEqualTo(Action.ADMIT);
  }

  @Test
  void fullMemoryThatCannotBeSealedWaitsForAFlush() {
    Decision d = new WriteAdmission(Admission.ASAP, 0.8).decide(
        with(calm(), null, 0, 10, Memory.TREE, true, false, null, false, false));
    assertThat(d.action()).isEqualTo(Action.WAIT);
    assertThat(d.reason()).isEqualTo(Reason.MEMORY_FULL);
    assertThat(d.reason().stallCause()).isEqualTo(StallCause.MEMORY_FULL);
    assertThat(d.waitFor()).isEqualTo(WaitFor.FLUSH);
    assertThat(d.stopped()).isTrue();
  }

  @Test
  void theGroupBudgetWaitsWithItsOwnCauseCountedAsAMemoryStall() {
    Decision d = new WriteAdmission(Admission.ASAP, 0.8).decide(
        with(calm(), null, 0, 10, Memory.GROUP, true, false, null, false, false));
    assertThat(d.action()).isEqualTo(Action.WAIT);
    assertThat(d.reason()).isEqualTo(Reason.GROUP_MEMORY);
    assertThat(d.reason().stallCause()).isEqualTo(StallCause.MEMORY_FULL);
    assertThat(d.waitFor()).isEqualTo(WaitFor.FLUSH);
  }

  @ParameterizedTest
  @EnumSource(value = Memory.class, names = {"TREE", "GROUP"})
  void fullMemoryThatCanBeSealedIsSealed(Memory memory) {
    Decision d = new WriteAdmission(Admission.ASAP, 0.8).decide(
        with(calm(), null, 0, 10, memory, true, true, null, false, false));
    assertThat(d.action()).isEqualTo(Action.SEAL);
    assertThat(d.reason()).isEqualTo(Reason.SEAL);
    assertThat(d.stopped()).isFalse();
  }

  @Test
  void memoryIsNotCheckedForATreeOfAPartition() {
    Decision d = new WriteAdmission(Admission.ASAP, 0.8).decide(
        with(calm(), null, 0, 10, Memory.NONE, true, false, FLUSH_ERROR, false, false));
    assertThat(d.action()).isEqualTo(Action.ADMIT);
  }

  @Test
  void fullMemoryAfterAFailedFlushFailsInsteadOfWaiting() {
    Decision d = new WriteAdmission(Admission.ASAP, 0.8).decide(
        with(calm(), null, 0, 10, Memory.TREE, true, false, FLUSH_ERROR, false, false));
    assertThat(d.action()).isEqualTo(Action.FAIL);
    assertThat(d.reason()).isEqualTo(Reason.FLUSH_FAILED);
    assertThat(d.error()).isSameAs(FLUSH_ERROR);
    // With room to seal, the failed flush does not stop writes (flush() reported it).
    assertThat(new WriteAdmission(Admission.ASAP, 0.8).decide(
        with(calm(), null, 0, 10, Memory.TREE, true, true, FLUSH_ERROR, false, false)).action())
        .isEqualTo(Action.SEAL);
  }

  @Test
  void aViolatedConstraintWaitsForAMergeOnlyWhileOneIsPending() {
    WriteAdmission a = new WriteAdmission(Admission.ASAP, 0.8);
    Decision d = a.decide(with(calm(), null, 0, 30, Memory.TREE, false, true, null, true, true));
    assertThat(d.action()).isEqualTo(Action.WAIT);
    assertThat(d.reason()).isEqualTo(Reason.TOO_MANY_COMPONENTS);
    assertThat(d.reason().stallCause()).isEqualTo(StallCause.CONSTRAINT);
    assertThat(d.waitFor()).isEqualTo(WaitFor.MERGE);
    assertThat(a.decide(with(calm(), null, 0, 30, Memory.TREE, false, true, null, true, false))
        .action()).as("no merge would end the wait").isEqualTo(Action.ADMIT);
    assertThat(a.decide(with(calm(), null, 0, 30, Memory.NONE, false, true, null, true, true))
        .reason()).as("a tree of a partition checks its constraint")
        .isEqualTo(Reason.TOO_MANY_COMPONENTS);
  }

  @Test
  void aBackgroundErrorFailsEveryWriteFirst() {
    for (Admission mode : Admission.values()) {
      Decision d = new WriteAdmission(mode, 0.8).decide(
          with(calm(), BACKGROUND, 10, 30, Memory.TREE, true, false, FLUSH_ERROR, true, true));
      assertThat(d.action()).isEqualTo(Action.FAIL);
      assertThat(d.reason()).isEqualTo(Reason.BACKGROUND_ERROR);
      assertThat(d.error()).isSameAs(BACKGROUND);
    }
  }

  @Test
  void orderPacingThenMemoryThenConstraintThenSeal() {
    WriteAdmission a = new WriteAdmission(Admission.LIMIT, 0.8);
    // Everything at once: pacing comes first.
    State all = with(calm(), null, 5, 30, Memory.TREE, true, false, null, true, true);
    assertThat(a.decide(all).reason()).isEqualTo(Reason.RATE_LIMIT);
    // Paced: full memory that cannot be sealed before the constraint (as RocksDB and LevelDB).
    State paced = with(all, null, 0, 30, Memory.TREE, true, false, null, true, true);
    assertThat(a.decide(paced).reason()).isEqualTo(Reason.MEMORY_FULL);
    // Memory that can be sealed is sealed only once the constraint no longer stops writes.
    State sealable = with(all, null, 0, 30, Memory.TREE, true, true, null, true, true);
    assertThat(a.decide(sealable).reason()).isEqualTo(Reason.TOO_MANY_COMPONENTS);
    State merged = with(all, null, 0, 30, Memory.TREE, true, true, null, false, false);
    assertThat(a.decide(merged).reason()).isEqualTo(Reason.SEAL);
  }

  @Test
  void everyCauseIsReachable() {
    Set<Reason> seen = EnumSet.noneOf(Reason.class);
    for (Admission mode : Admission.values()) {
      WriteAdmission a = new WriteAdmission(mode, 0.5);
      for (Memory memory : Memory.values()) {
        for (int bits = 0; bits < 128; bits++) {
          State s = new State((bits & 1) != 0 ? BACKGROUND : null, (bits & 2) != 0 ? 10 : 0, 15,
              20, memory, (bits & 4) != 0, (bits & 8) != 0, (bits & 16) != 0 ? FLUSH_ERROR : null,
              (bits & 32) != 0, (bits & 64) != 0);
          Decision d = a.decide(s);
          assertThat(d.action() == Action.ADMIT).isEqualTo(d.reason() == null);
          if (d.reason() != null) {
            seen.add(d.reason());
          }
        }
      }
    }
    assertThat(seen).containsExactlyInAnyOrder(Reason.values());
  }

  @Test
  void theConfiguredConstraintAsksItsOwnQuestionOfThePolicyAndABadSlowdownIsRefused() {
    org.strata.lsm.spi.MergePolicy policy = new org.strata.lsm.spi.MergePolicy() {
      @Override
      public java.util.List<org.strata.lsm.spi.MergeRequest> findMerges(
          org.strata.lsm.spi.MergeContext index, boolean full) {
        return java.util.List.of();
      }

      @Override
      public boolean isMergeLagging(org.strata.lsm.spi.MergeContext index) {
        return true;
      }

      @Override
      public boolean isMergeLaggingLocally(org.strata.lsm.spi.MergeContext index) {
        return false;
      }
    };
    assertThat(WriteAdmission.constraintViolated(
        org.strata.lsm.config.FlowControl.Constraint.GLOBAL, policy, null)).isTrue();
    assertThat(WriteAdmission.constraintViolated(
        org.strata.lsm.config.FlowControl.Constraint.LOCAL, policy, null)).isFalse();
    assertThatThrownBy(() -> new WriteAdmission(Admission.GRADED, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slowdown-at");
  }
}
