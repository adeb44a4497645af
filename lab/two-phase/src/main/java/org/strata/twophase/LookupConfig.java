package org.strata.twophase;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The point-lookup phase of {@code strata compare --phases lookup} (docs/compare.md): after the
 * load, random gets of loaded keys for {@code duration-seconds} with each thread count in turn,
 * after one warm-up of {@code warmup-seconds} with the first.
 *
 * @param durationSeconds measured seconds per thread count, 1 to 86,400 (default 30)
 * @param warmupSeconds unmeasured seconds before the first thread count, 0 to 86,400 (default 5)
 * @param threads the thread counts, each 1 to 64 (default [1, 2])
 */
public record LookupConfig(@JsonProperty("duration-seconds") Integer durationSeconds,
    @JsonProperty("warmup-seconds") Integer warmupSeconds,
    @JsonProperty("threads") List<Integer> threads) {

  public LookupConfig {
    durationSeconds = durationSeconds == null ? 30 : durationSeconds;
    warmupSeconds = warmupSeconds == null ? 5 : warmupSeconds;
    threads = threads == null ? List.of(1, 2) : List.copyOf(threads);
    if (durationSeconds < 1 || durationSeconds > 86_400) {
      throw new IllegalArgumentException("lookup.duration-seconds: " + durationSeconds
          + " is not allowed; allowed: 1 to 86400");
    }
    if (warmupSeconds < 0 || warmupSeconds > 86_400) {
      throw new IllegalArgumentException("lookup.warmup-seconds: " + warmupSeconds
          + " is not allowed; allowed: 0 to 86400");
    }
    if (threads.isEmpty() || threads.stream().anyMatch(t -> t == null || t < 1 || t > 64)) {
      throw new IllegalArgumentException("lookup.threads: " + threads + " is not allowed;"
          + " allowed: a non-empty list of thread counts, each 1 to 64");
    }
  }

  /** The defaults: 30 s each with 1 and then 2 threads, after a 5 s warm-up. */
  public static LookupConfig defaults() {
    return new LookupConfig(null, null, null);
  }
}
