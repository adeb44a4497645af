package org.strata.lsm.testing.property;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs a property over seeded random cases, JUnit-style: the test method builds a runner and calls
 * {@link #check}. Each run prints its seed; a failing case is shrunk with the {@link Shrinker} and
 * reported with the seed that replays it ({@code -Dstrata.seed=S}, which Maven passes on to the
 * tests) and the smallest failing case found.
 *
 * <p>The cases of a run with seed {@code S} are generated from successive splits of one random
 * source seeded with {@code S}, so a replay with the same seed generates the same cases in the
 * same order. Without {@code strata.seed} every run draws a new seed, so repeated runs explore new
 * cases.
 *
 * @param <C> the case type
 */
public final class PropertyRunner<C> {
  /** System property that fixes the seed of every property in the run. */
  public static final String SEED_PROPERTY = "strata.seed";

  private final Generator<C> generator;
  private int tries = 100;
  private int shrinkBudget = 300;
  private Shrinker<C> shrinker = Shrinker.none();
  private Long seed;

  private PropertyRunner(Generator<C> generator) {
    this.generator = generator;
  }

  /** A runner over cases made by {@code generator}. */
  public static <C> PropertyRunner<C> forAll(Generator<C> generator) {
    return new PropertyRunner<>(generator);
  }

  /** Number of cases to try (default 100). */
  public PropertyRunner<C> tries(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("tries must be at least 1, got " + n);
    }
    this.tries = n;
    return this;
  }

  /** How failing cases are simplified. */
  public PropertyRunner<C> shrinkWith(Shrinker<C> s) {
    this.shrinker = s;
    return this;
  }

  /** At most this many extra property checks are spent shrinking a failure (default 300). */
  public PropertyRunner<C> shrinkBudget(int checks) {
    this.shrinkBudget = checks;
    return this;
  }

  /** Fixes the seed (a test of the runner itself does this; properties use strata.seed). */
  public PropertyRunner<C> seed(long s) {
    this.seed = s;
    return this;
  }

  /** The seed this run uses: the fixed one, {@code strata.seed}, or a fresh random one. */
  long resolveSeed() {
    if (seed != null) {
      return seed;
    }
    String s = System.getProperty(SEED_PROPERTY);
    if (s != null && !s.isBlank()) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(SEED_PROPERTY + " must be a whole number, got '" + s
            + "'", e);
      }
    }
    return new SplittableRandom().nextLong();
  }

  /**
   * Checks the property on every case; throws an {@link AssertionError} naming the seed, the try,
   * the shrunk case and the original failure if any case fails.
   */
  public void check(String name, Property<C> property) {
    long s = resolveSeed();
    System.out.printf("property '%s': %d tries, seed %d%n", name, tries, s);
    SplittableRandom seeds = new SplittableRandom(s);
    for (int i = 0; i < tries; i++) {
      C testCase = generator.generate(seeds.split());
      Throwable failure = run(property, testCase);
      if (failure != null) {
        throw report(name, s, i, testCase, failure, property);
      }
    }
  }

  private static <C> Throwable run(Property<C> property, C testCase) {
    try {
      property.check(testCase);
      return null;
    } catch (Exception | AssertionError e) {
      return e;
    }
  }

  private AssertionError report(String name, long s, int index, C original, Throwable failure,
      Property<C> property) {
    C smallest = original;
    Throwable smallestFailure = failure;
    int checks = 0;
    int steps = 0;
    boolean progress = true;
    while (progress && checks < shrinkBudget) {
      progress = false;
      List<C> candidates = shrinker.candidates(smallest);
      for (C candidate : candidates) {
        if (checks++ >= shrinkBudget) {
          break;
        }
        Throwable f = run(property, candidate);
        if (f != null) {
          smallest = candidate;
          smallestFailure = f;
          steps++;
          progress = true;
          break;
        }
      }
    }
    String message = String.format("property '%s' failed on try %d of %d with seed %d (replay:"
        + " -D%s=%d)%nshrunk in %d steps (%d checks) to:%n  %s%nfailure: %s%noriginal case:%n  %s",
        name, index + 1, tries, s, SEED_PROPERTY, s, steps, checks, smallest, smallestFailure,
        abbreviate(String.valueOf(original), 4000));
    AssertionError e = new AssertionError(message, smallestFailure);
    if (smallestFailure != failure) {
      e.addSuppressed(failure);
    }
    return e;
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + " ... (" + s.length() + " characters)";
  }
}
