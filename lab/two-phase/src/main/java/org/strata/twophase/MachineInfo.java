package org.strata.twophase;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The machine a run measured on, as every report names it: cores, memory, the data directory's
 * file system, the JVM and its options, the load average before and after the run, and whether
 * the data fit in the OS cache (its size against the memory available at the start).
 *
 * @param cores processors available to the JVM
 * @param memoryTotalBytes physical memory ({@code MemTotal} of /proc/meminfo), or -1 if unknown
 * @param memoryAvailableBytes memory available at the start ({@code MemAvailable}), or -1
 * @param fileSystem the data directory's file system type and device
 * @param jvm the JVM's name and version
 * @param jvmOptions the JVM's input arguments
 * @param loadBefore load averages (1, 5, 15 minutes) at the start, empty if unknown
 * @param loadAfter load averages at the end
 * @param dataBytes bytes of the loaded data on disk (-1 before loading)
 * @param maxHeapBytes the JVM's maximum heap ({@code -Xmx} or its default)
 * @param garbageCollectors the JVM's collectors (its garbage collector MXBeans' names)
 */
public record MachineInfo(int cores, long memoryTotalBytes, long memoryAvailableBytes,
    String fileSystem, String jvm, List<String> jvmOptions, List<Double> loadBefore,
    List<Double> loadAfter, long dataBytes, long maxHeapBytes, List<String> garbageCollectors) {

  public MachineInfo {
    jvmOptions = List.copyOf(jvmOptions);
    garbageCollectors = List.copyOf(garbageCollectors);
    loadBefore = List.copyOf(loadBefore);
    loadAfter = List.copyOf(loadAfter);
  }

  /** The machine now, for a run whose data goes under {@code dataDir} (created if missing). */
  public static MachineInfo capture(Path dataDir) throws IOException {
    Files.createDirectories(dataDir);
    FileStore fs = Files.getFileStore(dataDir);
    return new MachineInfo(Runtime.getRuntime().availableProcessors(), meminfo("MemTotal"),
        meminfo("MemAvailable"), fs.type() + " (" + fs.name() + ")",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        ManagementFactory.getRuntimeMXBean().getInputArguments(), loadAverage(), List.of(), -1,
        Runtime.getRuntime().maxMemory(), GcPauseRecorder.collectorNames());
  }

  /** This record with the load average now and the loaded data's size. */
  public MachineInfo finish(long loadedDataBytes) {
    return new MachineInfo(cores, memoryTotalBytes, memoryAvailableBytes, fileSystem, jvm,
        jvmOptions, loadBefore, loadAverage(), loadedDataBytes, maxHeapBytes, garbageCollectors);
  }

  /**
   * True if the loaded data is smaller than the memory that was available, so it could be cached.
   */
  public boolean dataFitsInCache() {
    return dataBytes >= 0 && memoryAvailableBytes > 0 && dataBytes < memoryAvailableBytes;
  }

  /** One paragraph for a report. */
  public String describe() {
    return String.format(Locale.ROOT, "Machine: %d cores, %s memory (%s available at the start),"
            + " data on %s; %s with options %s, maximum heap %s, collectors %s. Load average"
            + " (1/5/15 min) %s before, %s after. The loaded data (%s) %s the OS cache.", cores,
        gib(memoryTotalBytes), gib(memoryAvailableBytes), fileSystem, jvm,
        jvmOptions.isEmpty() ? "(none)" : String.join(" ", jvmOptions), gib(maxHeapBytes),
        garbageCollectors.isEmpty() ? "unknown" : String.join(", ", garbageCollectors),
        loads(loadBefore), loads(loadAfter), gib(dataBytes),
        dataFitsInCache() ? "fit in" : "did not fit in");
  }

  /** As JSON. */
  public ObjectNode json() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("cores", cores);
    o.put("memoryTotalBytes", memoryTotalBytes);
    o.put("memoryAvailableBytes", memoryAvailableBytes);
    o.put("fileSystem", fileSystem);
    o.put("jvm", jvm);
    jvmOptions.forEach(o.putArray("jvmOptions")::add);
    loadBefore.forEach(o.putArray("loadAverageBefore")::add);
    loadAfter.forEach(o.putArray("loadAverageAfter")::add);
    o.put("maxHeapBytes", maxHeapBytes);
    garbageCollectors.forEach(o.putArray("garbageCollectors")::add);
    o.put("dataBytes", dataBytes);
    o.put("dataFitsInCache", dataFitsInCache());
    return o;
  }

  private static String gib(long bytes) {
    return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f"
        + " GiB", bytes / (double) (1L << 30));
  }

  private static String loads(List<Double> l) {
    if (l.isEmpty()) {
      return "unknown";
    }
    StringBuilder b = new StringBuilder();
    for (double d : l) {
      b.append(b.length() == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.2f", d));
    }
    return b.toString();
  }

  private static long meminfo(String key) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith(key + ":")) {
          String[] p = line.substring(key.length() + 1).trim().split("\\s+");
          return Long.parseLong(p[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  private static List<Double> loadAverage() {
    try {
      String[] p = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return List.of(Double.parseDouble(p[0]), Double.parseDouble(p[1]),
          Double.parseDouble(p[2]));
    } catch (IOException | RuntimeException e) {
      double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      return one < 0 ? List.of() : List.of(one);
    }
  }
}
