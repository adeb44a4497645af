package org.strata.crash;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a store, or a partition of a dataset, must hold after the operations of a {@link
 * CrashWorkload} applied so far, in the order applied (a run may apply earlier operations again):
 * for each live key, the sequence number of the write that set it.
 */
public final class CrashModel {
  private final Map<String, Long> live;
  private long applied;

  /** The empty store: no operation applied. */
  public CrashModel() {
    this(new HashMap<>(), 0);
  }

  private CrashModel(Map<String, Long> live, long applied) {
    this.live = live;
    this.applied = applied;
  }

  /** A copy that changes independently. */
  public CrashModel copy() {
    return new CrashModel(new HashMap<>(live), applied);
  }

  /** The number of operations applied: the sequence number of the last. */
  public long applied() {
    return applied;
  }

  /**
   * Applies operation {@code seq}, which may be one applied already (a run that writes again from
   * an earlier operation); {@link #applied()} becomes the larger of the two.
   */
  public void apply(long seq, CrashWorkload w) {
    if (w.isDelete(seq)) {
      live.remove(w.key(seq));
    } else {
      live.put(w.key(seq), seq);
    }
    applied = Math.max(applied, seq);
  }

  /**
   * Whether the keys of {@code actual} that {@code owned} accepts hold exactly this model's live
   * keys that it accepts, each with its value (one partition of a dataset). The caller has checked
   * that both hold as many such keys.
   */
  public boolean matches(Map<String, String> actual, CrashWorkload w, WriterKind kind,
      Predicate<String> owned) {
    for (Map.Entry<String, Long> e : live.entrySet()) {
      if (!owned.test(e.getKey())) {
        continue;
      }
      String v = actual.get(e.getKey());
      if (v == null || !v.equals(w.canonical(e.getValue(), kind))) {
        return false;
      }
    }
    return true;
  }

  /** Live keys with the sequence number of their write. */
  public Map<String, Long> live() {
    return Collections.unmodifiableMap(live);
  }
}
