package org.strata.sim.des;

import java.util.List;
import java.util.SplittableRandom;

/**
 * When writes arrive in an open system (Luo & Carey 3.2;
 * docs/papers/luo-carey.md#open-loop-driver): the intended arrival time of each write, computed
 * arithmetically so that a slow writer never slows the arrivals (no coordinated omission). An
 * instance is a stateful sequence; create a fresh one per run.
 */
public interface ArrivalProcess {
  /** The intended arrival time of the next write, in seconds from the start of the phase. */
  double next();

  /** The long-run mean arrival rate in writes per second. */
  double meanRate();

  /** The paper's constant process: the k-th write (k = 0, 1, ...) arrives at k / rate. */
  static ArrivalProcess constant(double rate) {
    requirePositive(rate, "arrival rate");
    return new ArrivalProcess() {
      private long k;

      @Override
      public double next() {
        return k++ / rate;
      }

      @Override
      public double meanRate() {
        return rate;
      }
    };
  }

  /** Poisson arrivals at {@code rate} (exponential gaps from {@code seed}). */
  static ArrivalProcess poisson(double rate, long seed) {
    requirePositive(rate, "arrival rate");
    SplittableRandom random = new SplittableRandom(seed);
    return new ArrivalProcess() {
      private double t;

      @Override
      public double next() {
        double now = t;
        t += -Math.log(1 - random.nextDouble()) / rate;
        return now;
      }

      @Override
      public double meanRate() {
        return rate;
      }
    };
  }

  /**
   * A repeating pattern of constant-rate segments, e.g. 2000/s for 1500 s then 8000/s for 300 s
   * (the paper's bursty experiment, section 5.2.3).
   */
  static ArrivalProcess bursts(List<Burst> pattern) {
    if (pattern.isEmpty()) {
      throw new IllegalArgumentException("a burst pattern needs at least one segment");
    }
    List<Burst> segments = List.copyOf(pattern);
    double cycle = 0;
    double writes = 0;
    for (Burst b : segments) {
      cycle += b.seconds();
      writes += b.rate() * b.seconds();
    }
    double mean = writes / cycle;
    return new ArrivalProcess() {
      private int segment;
      private double segmentStart;
      private long k;

      @Override
      public double next() {
        while (true) {
          Burst b = segments.get(segment);
          double t = segmentStart + k / b.rate();
          if (t < segmentStart + b.seconds()) {
            k++;
            return t;
          }
          segmentStart += b.seconds();
          segment = (segment + 1) % segments.size();
          k = 0;
        }
      }

      @Override
      public double meanRate() {
        return mean;
      }
    };
  }

  private static void requirePositive(double v, String what) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(what + " must be a positive number, got " + v);
    }
  }

  /**
   * One segment of a burst pattern.
   *
   * @param rate writes per second, positive
   * @param seconds length of the segment, positive
   */
  record Burst(double rate, double seconds) {
    public Burst {
      requirePositive(rate, "burst rate");
      requirePositive(seconds, "burst length");
    }

    /** Parses {@code RATE:SECONDS[,RATE:SECONDS...]}, e.g. {@code 2000:1500,8000:300}. */
    public static List<Burst> parseAll(String text) {
      List<Burst> out = new java.util.ArrayList<>();
      for (String part : text.split(",")) {
        String[] rs = part.trim().split(":");
        if (rs.length != 2) {
          throw new IllegalArgumentException("a burst segment is RATE:SECONDS (e.g. 2000:1500),"
              + " got '" + part.trim() + "'");
        }
        try {
          out.add(new Burst(Double.parseDouble(rs[0].trim()), Double.parseDouble(rs[1].trim())));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("a burst segment is RATE:SECONDS with two positive"
              + " numbers, got '" + part.trim() + "'");
        }
      }
      return out;
    }
  }
}
