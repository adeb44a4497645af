package org.strata.lsm.testing.property;

/**
 * A check of one case: returns normally if the case satisfies the property, throws (an assertion
 * error or any exception) if it does not.
 *
 * @param <C> the case type
 */
@FunctionalInterface
public interface Property<C> {
  void check(C testCase) throws Exception;
}
