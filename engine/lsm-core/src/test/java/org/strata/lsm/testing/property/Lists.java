package org.strata.lsm.testing.property;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/** Random lists and their shrinking: the building blocks of operation-sequence tests. */
public final class Lists {
  private Lists() {}

  /** A list of {@code min..max} elements (both inclusive), each from {@code element}. */
  public static <T> List<T> of(SplittableRandom random, int min, int max,
      Generator<? extends T> element) {
    int n = min + random.nextInt(max - min + 1);
    List<T> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(element.generate(random));
    }
    return out;
  }

  /**
   * Shorter versions of {@code list}, the shortest first: with each chunk of length n/2, n/4, ...,
   * 1 removed in turn (the removal steps of delta debugging). Never proposes a list shorter than
   * {@code min}.
   */
  public static <T> List<List<T>> shorter(List<T> list, int min) {
    List<List<T>> out = new ArrayList<>();
    int n = list.size();
    for (int chunk = n / 2; chunk >= 1; chunk /= 2) {
      if (n - chunk < min) {
        continue;
      }
      for (int start = 0; start + chunk <= n; start += chunk) {
        List<T> c = new ArrayList<>(n - chunk);
        c.addAll(list.subList(0, start));
        c.addAll(list.subList(start + chunk, n));
        out.add(c);
      }
    }
    return out;
  }

  /**
   * A shrinker for a case holding one list: shortens the list that {@code get} extracts and
   * rebuilds the case with {@code with}.
   */
  public static <C, T> Shrinker<C> shrinking(Function<C, List<T>> get,
      java.util.function.BiFunction<C, List<T>, C> with, int min) {
    return c -> {
      List<C> out = new ArrayList<>();
      for (List<T> shorter : shorter(get.apply(c), min)) {
        out.add(with.apply(c, shorter));
      }
      return out;
    };
  }
}
