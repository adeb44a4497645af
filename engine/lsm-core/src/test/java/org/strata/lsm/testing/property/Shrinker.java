package org.strata.lsm.testing.property;

import java.util.List;

/**
 * Proposes simpler variants of a failing case, simplest first. The runner adopts the first variant
 * that still fails and asks again, until no variant fails.
 *
 * @param <C> the case type
 */
@FunctionalInterface
public interface Shrinker<C> {
  List<C> candidates(C failing);

  /** A shrinker that proposes nothing: the failing case is reported as generated. */
  static <C> Shrinker<C> none() {
    return c -> List.of();
  }
}
