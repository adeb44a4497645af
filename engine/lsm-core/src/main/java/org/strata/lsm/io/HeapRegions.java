package org.strata.lsm.io;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The garbage collector's heap region size, for buffers sized to be (or not to be) G1
 * <em>humongous</em> objects. G1 stores an object of half a region or more in whole regions of its
 * own, outside the young generation: no young collection copies it, and the next collection after
 * it becomes garbage reclaims it. A long-lived buffer is cheapest there, as long as it fits one
 * region (an object a few bytes over a region takes two).
 */
public final class HeapRegions {
  /** G1's region size in bytes, or 0 if G1 is not the collector (or the JVM does not say). */
  public static final long G1_REGION_BYTES = g1RegionBytes();

  private HeapRegions() {}

  private static long g1RegionBytes() {
    try {
      HotSpotDiagnosticMXBean vm =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (vm != null && "true".equals(vm.getVMOption("UseG1GC").getValue())) {
        return Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
      }
    } catch (IllegalArgumentException | UnsupportedOperationException | SecurityException e) {
      // not a HotSpot JVM, or the option is unknown
    }
    return 0;
  }
}
