package org.strata.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import org.strata.lsm.memory.MemoryComponent;

/**
 * Heap bytes a full memory component retains per byte of its data (keys plus values), measured
 * without JMH: {@code java -cp benchmarks.jar org.strata.bench.MemoryComponentHeap [valueBytes]
 * [budgetBytes]}. It fills one component with distinct 20-byte keys in random order and values of
 * {@code valueBytes} (100 by default), each put with arrays of its own as a caller's would be,
 * until the component's own {@link MemoryComponent#sizeBytes()} reaches {@code budgetBytes} (64
 * MiB by default, the default {@code memory-component.size}), then collects until the used heap
 * is stable and prints the heap retained over the empty-heap baseline, divided by the data bytes.
 * It reports; it does not judge (the heap figure includes whatever else the JVM keeps alive, which
 * is the same before and after the fill).
 */
public final class MemoryComponentHeap {
  private MemoryComponentHeap() {}

  /** Fills a component and prints its heap cost (see the class comment). */
  public static void main(String[] args) {
    int valueBytes = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    long budget = args.length > 1 ? Long.parseLong(args[1]) : 64L << 20;
    byte[] template = BenchData.values(1, valueBytes, 3)[0];
    long baseline = usedAfterCollection();
    MemoryComponent mc = new MemoryComponent(1);
    long lsn = 0;
    while (mc.sizeBytes() < budget) {
      mc.put(BenchData.key(lsn), template.clone(), lsn + 1);
      lsn++;
    }
    long used = usedAfterCollection() - baseline;
    long data = mc.userBytes();
    System.out.printf(Locale.ROOT,
        "value %d B: %d entries, data %d B, sizeBytes %d B, heap retained %d B,"
            + " heap/data %.3f, sizeBytes/data %.3f, heap/sizeBytes %.3f%n",
        valueBytes, mc.entryCount(), data, mc.sizeBytes(), used, (double) used / data,
        (double) mc.sizeBytes() / data, (double) used / mc.sizeBytes());
    if (mc.entryCount() != lsn) {
      throw new IllegalStateException("expected " + lsn + " distinct keys, the component has "
          + mc.entryCount());
    }
  }

  /** Used heap after collections, once two in a row agree within 1 MiB (at most 10). */
  private static long usedAfterCollection() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long used = memory.getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < (1 << 20)) {
        return used;
      }
      previous = used;
    }
    return previous;
  }
}
