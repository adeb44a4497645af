package org.strata.lsm.engine;

import org.strata.lsm.StallCause;
import org.strata.lsm.config.FlowControl;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;

/**
 * The one write-admission decision: given what a writer sees ({@link State}), whether its write
 * goes ahead, must first seal the active memory component, is paced, waits, or fails, and why
 * ({@link Reason}). It is a pure function of the state: the engine ({@link LsmTree}), a dataset
 * partition ({@link TreeGroup}) and the discrete-event simulator all ask it, and each only gathers
 * the state and carries out the decision (sleeping on a rate limiter, awaiting a condition, or
 * advancing virtual time). RocksDB decides its stalls the same way, in one function returning a
 * condition and a cause; LevelDB in {@code MakeRoomForWrite}.
 *
 * <p>The checks, in order (memory before the component constraint, as RocksDB and LevelDB order
 * them):
 *
 * <ol>
 *   <li>a sticky background error fails every write ({@link Reason#BACKGROUND_ERROR});
 *   <li>a write not yet paced is paced to {@code flow-control.write-rate} under {@code limit}
 *       admission, and under {@code graded} admission while the disk components reach {@code
 *       slowdown-at} of the policy's component constraint ({@link Reason#RATE_LIMIT}); pacing is
 *       not a stall;
 *   <li>a full active memory component that cannot be sealed (every memory component is in use)
 *       stops writes until a flush frees one ({@link Reason#MEMORY_FULL}, or {@link
 *       Reason#GROUP_MEMORY} for the shared budget of a dataset partition), or fails them if the
 *       last flush failed ({@link Reason#FLUSH_FAILED}), since no flush is coming;
 *   <li>a violated component constraint stops writes while a merge is pending ({@link
 *       Reason#TOO_MANY_COMPONENTS});
 *   <li>a full active memory component that can be sealed is sealed, then the writer asks again;
 *   <li>otherwise the write is admitted.
 * </ol>
 */
public final class WriteAdmission {

  /** Which memory a writer checks. */
  public enum Memory {
    /** None: only the constraint (a tree of a dataset partition; the partition checks memory). */
    NONE,
    /** The tree's own memory components. */
    TREE,
    /** The memory budget shared by the trees of a dataset partition. */
    GROUP
  }

  /** Why a write does not simply go ahead. */
  public enum Reason {
    /** Every memory component is full; waiting for a flush (a flush stall). */
    MEMORY_FULL(StallCause.MEMORY_FULL, WaitFor.FLUSH),
    /** The partition's memory budget is used and some tree cannot seal; waiting for a flush. */
    GROUP_MEMORY(StallCause.MEMORY_FULL, WaitFor.FLUSH),
    /** The component constraint is violated; waiting for a merge (a merge stall). */
    TOO_MANY_COMPONENTS(StallCause.CONSTRAINT, WaitFor.MERGE),
    /** The write is paced to the write rate (not a stall). */
    RATE_LIMIT(null, WaitFor.RATE_LIMITER),
    /** Memory is full and the last flush failed: no flush is coming. */
    FLUSH_FAILED(null, WaitFor.NOTHING),
    /** A background flush failed; writes fail until {@code flush()} succeeds. */
    BACKGROUND_ERROR(null, WaitFor.NOTHING),
    /** The active memory component is full and another may be added: seal it. */
    SEAL(null, WaitFor.NOTHING);

    private final StallCause stall;
    private final WaitFor waitFor;

    Reason(StallCause stall, WaitFor waitFor) {
      this.stall = stall;
      this.waitFor = waitFor;
    }

    /** The stall this cause is counted as, or null if it is not a stall. */
    public StallCause stallCause() {
      return stall;
    }

    /** What ends the wait. */
    public WaitFor waitFor() {
      return waitFor;
    }
  }

  /** What a waiting writer waits for. */
  public enum WaitFor {
    /** A flush to complete (a memory component to be freed). */
    FLUSH,
    /** A merge to complete (the constraint to be re-evaluated). */
    MERGE,
    /** The rate limiter to grant the write's bytes. */
    RATE_LIMITER,
    /** Nothing: the decision is immediate. */
    NOTHING
  }

  /** What the writer does. */
  public enum Action {
    /** Go ahead. */
    ADMIT,
    /** Seal the active memory component (or every tree's, for a group), then ask again. */
    SEAL,
    /** Acquire {@link Decision#bytes()} from the rate limiter, then ask again as paced. */
    PACE,
    /** Wait for {@link Reason#waitFor()}, counting a stall of {@link Reason#stallCause()}. */
    WAIT,
    /** Fail the write with {@link Decision#error()}. */
    FAIL
  }

  /**
   * What a writer sees.
   *
   * @param backgroundError the sticky error of a background flush, or null
   * @param unpacedBytes bytes of the write still to pace; 0 once paced (or if never paced)
   * @param diskComponents disk components now
   * @param componentConstraint the policy's component constraint ({@link
   *     MergePolicy#componentConstraint()}; {@link Integer#MAX_VALUE} for none)
   * @param memory which memory is checked; with {@link Memory#NONE} the next three are ignored
   * @param activeFull whether the active memory component (or the group's) has reached its size
   * @param canSeal whether it may be sealed now (a memory component is free, in every tree)
   * @param flushError the error of the last flush if it failed and none succeeded since, or null
   * @param constraintViolated whether the component constraint is violated
   * @param mergePending whether a merge is scheduled or running (one that will end the violation)
   */
  public record State(Throwable backgroundError, long unpacedBytes, int diskComponents,
      int componentConstraint, Memory memory, boolean activeFull, boolean canSeal,
      Throwable flushError, boolean constraintViolated, boolean mergePending) {}

  /**
   * The decision.
   *
   * @param action what the writer does
   * @param reason why, or null when admitted
   * @param bytes for {@link Action#PACE}: bytes to acquire from the rate limiter
   * @param error for {@link Action#FAIL}: the error that stops writes
   */
  public record Decision(Action action, Reason reason, long bytes, Throwable error) {
    static final Decision ADMIT = new Decision(Action.ADMIT, null, 0, null);

    /** What ends a wait ({@link WaitFor#NOTHING} unless the writer waits or paces). */
    public WaitFor waitFor() {
      return reason == null ? WaitFor.NOTHING : reason.waitFor();
    }

    /** True if writes are stopped (the writer waits on a stall). */
    public boolean stopped() {
      return action == Action.WAIT;
    }
  }

  private final FlowControl.Admission admission;
  private final double slowdownAt;

  /**
   * @param admission how writes are paced
   * @param slowdownAt fraction of the component constraint at which {@code graded} paces
   */
  public WriteAdmission(FlowControl.Admission admission, double slowdownAt) {
    if (!(slowdownAt > 0 && slowdownAt <= 1)) {
      throw new IllegalArgumentException("slowdown-at " + slowdownAt + " is not a fraction"
          + " greater than 0 and at most 1");
    }
    this.admission = admission;
    this.slowdownAt = slowdownAt;
  }

  /** The pacing mode. */
  public FlowControl.Admission admission() {
    return admission;
  }

  /**
   * Whether {@code policy} reports the component constraint {@code constraint} ({@code
   * flow-control.constraint}) violated for the runs of {@code context}: {@link
   * MergePolicy#isMergeLagging} for {@code global}, {@link MergePolicy#isMergeLaggingLocally} for
   * {@code local}.
   */
  public static boolean constraintViolated(FlowControl.Constraint constraint, MergePolicy policy,
      MergeContext context) {
    return switch (constraint) {
      case GLOBAL -> policy.isMergeLagging(context);
      case LOCAL -> policy.isMergeLaggingLocally(context);
    };
  }

  /** The decision for a writer that sees {@code s}. */
  public Decision decide(State s) {
    if (s.backgroundError() != null) {
      return new Decision(Action.FAIL, Reason.BACKGROUND_ERROR, 0, s.backgroundError());
    }
    if (s.unpacedBytes() > 0 && paces(s.diskComponents(), s.componentConstraint())) {
      return new Decision(Action.PACE, Reason.RATE_LIMIT, s.unpacedBytes(), null);
    }
    boolean memoryFull = s.memory() != Memory.NONE && s.activeFull();
    if (memoryFull && !s.canSeal()) {
      if (s.flushError() != null) {
        return new Decision(Action.FAIL, Reason.FLUSH_FAILED, 0, s.flushError());
      }
      return new Decision(Action.WAIT,
          s.memory() == Memory.GROUP ? Reason.GROUP_MEMORY : Reason.MEMORY_FULL, 0, null);
    }
    if (s.constraintViolated() && s.mergePending()) {
      return new Decision(Action.WAIT, Reason.TOO_MANY_COMPONENTS, 0, null);
    }
    if (memoryFull) {
      return new Decision(Action.SEAL, Reason.SEAL, 0, null);
    }
    return Decision.ADMIT;
  }

  /** Whether a write is paced with {@code diskComponents} disk components. */
  private boolean paces(int diskComponents, int componentConstraint) {
    return switch (admission) {
      case ASAP -> false;
      case LIMIT -> true;
      case GRADED -> componentConstraint != Integer.MAX_VALUE
          && diskComponents >= slowdownAt * componentConstraint;
    };
  }
}
