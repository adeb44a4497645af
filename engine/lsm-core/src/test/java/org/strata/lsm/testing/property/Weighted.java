package org.strata.lsm.testing.property;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Chooses one of several generators with given weights, like a frequency table of operations.
 *
 * @param <T> what the generators make
 */
public final class Weighted<T> implements Generator<T> {
  private final List<Integer> weights = new ArrayList<>();
  private final List<Generator<? extends T>> choices = new ArrayList<>();
  private int total;

  /** Adds a choice taken with probability {@code weight / sum of weights}. */
  public Weighted<T> or(int weight, Generator<? extends T> choice) {
    if (weight <= 0) {
      throw new IllegalArgumentException("weights must be positive, got " + weight);
    }
    weights.add(weight);
    choices.add(choice);
    total += weight;
    return this;
  }

  @Override
  public T generate(SplittableRandom random) {
    if (total == 0) {
      throw new IllegalStateException("no choices");
    }
    int x = random.nextInt(total);
    for (int i = 0; i < choices.size(); i++) {
      x -= weights.get(i);
      if (x < 0) {
        return choices.get(i).generate(random);
      }
    }
    throw new AssertionError("unreachable");
  }
}
