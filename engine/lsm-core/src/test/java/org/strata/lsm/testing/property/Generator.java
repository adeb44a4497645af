package org.strata.lsm.testing.property;

import java.util.SplittableRandom;

/**
 * Makes one random case of a property from a seeded source; the same seed must give the same case,
 * so a failure can be replayed.
 *
 * @param <C> the case type
 */
@FunctionalInterface
public interface Generator<C> {
  C generate(SplittableRandom random);
}
