package org.strata.lsm.io;

/**
 * What a {@link Device} served, since the store opened: bytes written and read, forces, the
 * device time they took and the time callers waited for the device, each split into foreground
 * work (log, reads, opens), flushes and merges.
 *
 * @param name the device's name, or null when the store runs on no device model
 * @param written bytes written, by {@link IoClass} ordinal
 * @param read bytes read, by class
 * @param forces forces, by class
 * @param busyNanos device time charged, by class
 * @param waitNanos time callers of each class waited for the device
 */
public record DeviceCounters(String name, long[] written, long[] read, long[] forces,
    long[] busyNanos, long[] waitNanos) {
  /** No device model. */
  public static final DeviceCounters NONE = new DeviceCounters(null, new long[3], new long[3],
      new long[3], new long[3], new long[3]);

  public DeviceCounters {
    written = written.clone();
    read = read.clone();
    forces = forces.clone();
    busyNanos = busyNanos.clone();
    waitNanos = waitNanos.clone();
  }

  /** Whether the store runs on a device model. */
  public boolean present() {
    return name != null;
  }

  /** Bytes written by {@code c}. */
  public long written(IoClass c) {
    return written[c.ordinal()];
  }

  /** Bytes read by {@code c}. */
  public long read(IoClass c) {
    return read[c.ordinal()];
  }

  /** Forces by {@code c}. */
  public long forces(IoClass c) {
    return forces[c.ordinal()];
  }

  /** Device time charged to {@code c}, in nanoseconds. */
  public long busyNanos(IoClass c) {
    return busyNanos[c.ordinal()];
  }

  /** Time callers of {@code c} waited for the device, in nanoseconds. */
  public long waitNanos(IoClass c) {
    return waitNanos[c.ordinal()];
  }

  /** Device time charged to every class, in nanoseconds. */
  public long totalBusyNanos() {
    long s = 0;
    for (long b : busyNanos) {
      s += b;
    }
    return s;
  }

  /** These counters minus {@code before} (a window of a run). */
  public DeviceCounters minus(DeviceCounters before) {
    return new DeviceCounters(name, sub(written, before.written), sub(read, before.read),
        sub(forces, before.forces), sub(busyNanos, before.busyNanos),
        sub(waitNanos, before.waitNanos));
  }

  private static long[] sub(long[] a, long[] b) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] - b[i];
    }
    return r;
  }
}
