package org.strata.twophase;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Point lookups of random loaded keys ({@link LookupPhase}), one run per thread count.
 *
 * @param cacheBytes the configured cache (Strata's page cache; RocksDB's block cache)
 * @param dataBytes bytes of the loaded data on disk
 * @param records loaded records the keys are drawn from
 * @param warmupSeconds unmeasured seconds before the first run
 * @param runs one per thread count, in order
 */
public record LookupResult(long cacheBytes, long dataBytes, long records, int warmupSeconds,
    List<Run> runs) {

  public LookupResult {
    runs = List.copyOf(runs);
  }

  /** The loaded data over the cache. */
  public double dataToCache() {
    return cacheBytes <= 0 ? Double.NaN : (double) dataBytes / cacheBytes;
  }

  /** The run with {@code threads} threads, or null. */
  public Run run(int threads) {
    return runs.stream().filter(r -> r.threads() == threads).findFirst().orElse(null);
  }

  /**
   * One thread count's gets.
   *
   * @param threads threads issuing gets
   * @param seconds measured seconds
   * @param gets gets completed (every one returned its loaded value)
   * @param latency latency of one get, ms
   * @param cacheHitRatio cache hits over hits and misses during the run, NaN where unknown
   */
  public record Run(int threads, double seconds, long gets, Latency latency,
      double cacheHitRatio) {

    /** Gets per second. */
    public double getsPerSecond() {
      return seconds <= 0 ? 0 : gets / seconds;
    }
  }

  /** As JSON. */
  public ObjectNode json() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("cacheBytes", cacheBytes);
    o.put("dataBytes", dataBytes);
    o.put("dataToCache", dataToCache());
    o.put("records", records);
    o.put("warmupSeconds", warmupSeconds);
    var a = o.putArray("runs");
    for (Run r : runs) {
      ObjectNode x = a.addObject();
      x.put("threads", r.threads());
      x.put("seconds", r.seconds());
      x.put("gets", r.gets());
      x.put("getsPerSecond", r.getsPerSecond());
      x.set("latency", r.latency().json());
      if (Double.isNaN(r.cacheHitRatio())) {
        x.putNull("cacheHitRatio");
      } else {
        x.put("cacheHitRatio", r.cacheHitRatio());
      }
    }
    return o;
  }
}
