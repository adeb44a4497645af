package org.strata.ycsb.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;
import org.strata.scheduler.des.ArrivalProcess;

/**
 * The paper's worked example (Luo & Carey 2.1): at an intended 1000 writes/s, a store that stalls
 * for one second delays all the writes that arrive meanwhile, about 1000, by half a second on
 * average, because arrivals do not wait for the store; processing latency stays small.
 */
class OpenLoopDriverTest {
  @Test
  void aOneSecondStallAtOneThousandWritesPerSecondDelaysAboutOneThousandWritesByHalfASecond()
      throws Exception {
    long start = System.nanoTime();
    AtomicBoolean stalled = new AtomicBoolean();
    WriteTarget store = () -> {
      // The first write after one second finds the store stalled for a second.
      if (System.nanoTime() - start >= 1_000_000_000L && stalled.compareAndSet(false, true)) {
        Thread.sleep(1000);
      }
    };
    Recorder write = new Recorder(3);
    Recorder processing = new Recorder(3);
    OpenLoopDriver driver = new OpenLoopDriver(ArrivalProcess.constant(1000), 1, store, write,
        processing);
    OpenLoopDriver.Result r = driver.run(3_000_000_000L, 2_000_000_000L);
    Histogram w = write.getIntervalHistogram();
    Histogram p = processing.getIntervalHistogram();
    assertThat(r.arrived()).isBetween(2990L, 3000L);
    assertThat(r.completed()).isEqualTo(r.arrived());
    assertThat(r.unfinished()).isZero();
    assertThat(r.maxQueue()).as("the queue held the writes of the stall").isGreaterThan(900);

    // The writes delayed by the stall: latency above 5 ms (those that arrived during it, and a
    // few just after, queued behind the backlog).
    long delayed = 0;
    for (var v : w.recordedValues()) {
      if (v.getValueIteratedTo() > 5_000) {
        delayed += v.getCountAddedInThisIterationStep();
      }
    }
    // The writes that arrived during the stall are the 1000 slowest; their mean latency:
    double sum = 0;
    long taken = 0;
    for (long v = w.getMaxValue(); taken < 1000 && v > 0; ) {
      long c = Math.min(w.getCountAtValue(v), 1000 - taken);
      sum += (double) c * w.highestEquivalentValue(v);
      taken += c;
      v = w.lowestEquivalentValue(v) - 1;
    }
    double meanSeconds = sum / taken / 1e6;
    System.out.printf("open loop: %d writes delayed; mean write latency of the 1000 that arrived"
        + " during the stall %.3f s; processing p99 %.3f ms, max %.3f s%n", delayed,
        meanSeconds, p.getValueAtPercentile(99) / 1000.0, p.getMaxValue() / 1e6);
    assertThat(delayed).as("writes delayed by the stall").isBetween(950L, 1100L);
    assertThat(meanSeconds).as("their mean write latency, s").isGreaterThanOrEqualTo(0.5);
    // Processing latency: one write took the second; the others were fast.
    assertThat(p.getMaxValue()).isGreaterThanOrEqualTo(990_000L);
    assertThat(p.getValueAtPercentile(99)).as("processing p99, us").isLessThan(50_000L);
  }
}
