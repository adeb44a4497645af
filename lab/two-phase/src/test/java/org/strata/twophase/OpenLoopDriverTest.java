package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;
import org.strata.sim.des.ArrivalProcess;

/**
 * The paper's worked example (Luo & Carey 3.2): at an intended 1000 writes/s, a store that stalls
 * for one second delays all the writes that arrive meanwhile, about 1000, by half a second on
 * average, because arrivals do not wait for the store.
 *
 * <p>The stall is defined by data, not by a sleep: the first write after the 1000th arrival blocks
 * until 1000 more writes have arrived. Every bound below follows from that and from latency being
 * measured from the intended arrival time, so it holds however slow or loaded the machine is: the
 * k-th write to arrive during the stall waited at least until the 1000th arrival's intended time,
 * (1000 - k) ms after its own.
 */
class OpenLoopDriverTest {
  private static final int STALL_ARRIVALS = 1000;

  @Test
  void aOneSecondStallAtOneThousandWritesPerSecondDelaysAboutOneThousandWritesByHalfASecond()
      throws Exception {
    AtomicReference<OpenLoopDriver> driverRef = new AtomicReference<>();
    AtomicBoolean stalled = new AtomicBoolean();
    WriteTarget store = () -> {
      OpenLoopDriver d = driverRef.get();
      if (d.arrived() >= STALL_ARRIVALS && stalled.compareAndSet(false, true)) {
        long until = d.arrived() + STALL_ARRIVALS;
        // Bounded wait for the arrivals of the stall (at most about a minute).
        for (int i = 0; i < 60_000 && d.arrived() < until; i++) {
          Thread.sleep(1);
        }
        assertThat(d.arrived()).as("arrivals during the stall").isGreaterThanOrEqualTo(until);
      }
    };
    Recorder write = new Recorder(3);
    Recorder processing = new Recorder(3);
    Recorder lag = new Recorder(3);
    OpenLoopDriver driver = new OpenLoopDriver(ArrivalProcess.constant(1000), 1, store, write,
        processing, lag);
    driverRef.set(driver);
    OpenLoopDriver.Result r = driver.run(3_000_000_000L, 60_000_000_000L);
    Histogram w = write.getIntervalHistogram();
    Histogram p = processing.getIntervalHistogram();
    Histogram arrivalLag = lag.getIntervalHistogram();
    assertThat(stalled).as("the store stalled once").isTrue();
    // Intended arrival times are 1 ms apart from the start; those before the end arrive.
    assertThat(r.arrived()).isBetween(2999L, 3000L);
    assertThat(r.completed()).isEqualTo(r.arrived());
    assertThat(r.unfinished()).isZero();
    assertThat(arrivalLag.getTotalCount()).as("one arrival lag per arrival")
        .isEqualTo(r.arrived());
    assertThat(r.maxQueue()).as("the queue held the writes of the stall")
        .isGreaterThanOrEqualTo(STALL_ARRIVALS - 1);

    // The writes that arrived during the stall: each waited at least (1000 - k) ms.
    long delayed = 0;
    for (var v : w.recordedValues()) {
      if (v.getValueIteratedTo() > 5_000) {
        delayed += v.getCountAddedInThisIterationStep();
      }
    }
    // The 1000 slowest writes; their mean latency:
    double sum = 0;
    long taken = 0;
    for (long v = w.getMaxValue(); taken < STALL_ARRIVALS && v > 0; ) {
      long c = Math.min(w.getCountAtValue(v), STALL_ARRIVALS - taken);
      sum += (double) c * w.highestEquivalentValue(v);
      taken += c;
      v = w.lowestEquivalentValue(v) - 1;
    }
    double meanSeconds = sum / taken / 1e6;
    System.out.printf("open loop: %d writes delayed; mean write latency of the 1000 slowest"
        + " %.3f s; processing p99 %.3f ms, max %.3f s%n", delayed, meanSeconds,
        p.getValueAtPercentile(99) / 1000.0, p.getMaxValue() / 1e6);
    assertThat(delayed).as("writes delayed by the stall (more on a slow machine)")
        .isGreaterThanOrEqualTo(STALL_ARRIVALS - 6);
    assertThat(meanSeconds).as("their mean write latency, s").isGreaterThanOrEqualTo(0.499);
    // The write that found the store stalled completed after the stall's last arrival.
    assertThat(w.getMaxValue()).as("write latency of the stalled write, us")
        .isGreaterThanOrEqualTo(STALL_ARRIVALS * 1000L - 1000);
    // Queuing only adds: at every percentile write latency is at least processing latency.
    for (double q : new double[] {50, 90, 99, 99.9, 100}) {
      assertThat(w.getValueAtPercentile(q)).as("write latency at p%s", q)
          .isGreaterThanOrEqualTo(p.getValueAtPercentile(q));
    }
  }
}
