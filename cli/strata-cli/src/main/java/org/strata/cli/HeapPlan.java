package org.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.ConfigMapper;
import org.strata.lsm.config.ConfigOverrides;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.PageCacheConfig;

/**
 * The heap {@code bin/strata} gives a command, sized from the configuration it runs rather than
 * fixed: for every store the configuration describes (each object with a {@code memory-component}
 * or {@code page-cache} section; a configuration with neither is one store at the defaults), its
 * memory components at {@value #HEAP_PER_BUDGET_BYTE} bytes of heap per byte of their budget
 * ({@code memory-component.size} counts the arena bytes a component holds, and a full component
 * holds at most 1.016 times that in heap: docs/performance.md, "Memory component: heap per byte
 * of data"), plus its page cache; the largest store's need, plus {@value
 * #OVERHEAD_MIB} MiB for everything else (merges' buffers, the loader, latency histograms, class
 * metadata), rounded up to 64 MiB, at least {@value #FLOOR_MIB} MiB and at most three quarters of
 * the machine's memory. The heap is fixed ({@code -Xms} = {@code -Xmx}), for the reason
 * bin/strata gives.
 *
 * <p>Run as {@code HeapPlan ARGS...} with the command's own arguments, it prints the JVM options
 * for a command that names a configuration ({@code --config FILE}, with its {@code --set}
 * overrides) or a store ({@code --dir DIR} holding {@code config.json}), and nothing for any other
 * command, or when the configuration cannot be read (the command itself then reports why):
 * bin/strata then keeps its default heap.
 */
public final class HeapPlan {
  /** Heap bytes per byte of memory-component budget, with margin over the measured 1.016. */
  static final double HEAP_PER_BUDGET_BYTE = 1.25;
  /** Heap for everything but memory components and the page cache, in MiB. */
  static final long OVERHEAD_MIB = 256;
  /** The smallest heap planned, in MiB. */
  static final long FLOOR_MIB = 512;
  private static final long MIB = 1L << 20;

  private HeapPlan() {}

  /** Prints the options, or nothing. */
  public static void main(String[] args) {
    try {
      JsonNode config = configuration(args);
      if (config != null) {
        long mib = heapMib(config, physicalMemory());
        System.out.println("-Xms" + mib + "m -Xmx" + mib + "m");
      }
    } catch (RuntimeException e) {
      // Nothing printed: the command runs with the default heap and reports the error itself.
    }
  }

  /** The configuration the arguments name, with their overrides; null if they name none. */
  static JsonNode configuration(String[] args) {
    Path file = null;
    List<String> sets = new ArrayList<>();
    for (int i = 0; i + 1 < args.length; i++) {
      switch (args[i]) {
        case "--config" -> file = Path.of(args[++i]);
        case "--dir" -> {
          Path saved = Path.of(args[++i]).resolve("config.json");
          if (file == null && Files.isRegularFile(saved)) {
            file = saved;
          }
        }
        case "--set" -> sets.add(args[++i]);
        default -> { }
      }
    }
    if (file == null) {
      return null;
    }
    JsonNode root = ConfigMapper.readTree(ConfigMapper.readText(file), file.toString());
    if (!sets.isEmpty()) {
      ConfigOverrides.apply(root, sets);
    }
    return root;
  }

  /** The planned heap in MiB for {@code config} on a machine of {@code physicalBytes}. */
  static long heapMib(JsonNode config, long physicalBytes) {
    List<JsonNode> stores = new ArrayList<>();
    collect(config, stores);
    long need = stores.isEmpty() ? storeNeed(null, null) : 0;
    for (JsonNode s : stores) {
      need = Math.max(need, storeNeed(s.get("memory-component"), s.get("page-cache")));
    }
    long mib = (need + MIB - 1) / MIB + OVERHEAD_MIB;
    mib = (mib + 63) / 64 * 64;
    long ceiling = physicalBytes > 0 ? physicalBytes * 3 / 4 / MIB : Long.MAX_VALUE;
    return Math.max(FLOOR_MIB, Math.min(mib, Math.max(FLOOR_MIB, ceiling)));
  }

  private static void collect(JsonNode node, List<JsonNode> stores) {
    if (node.isObject()) {
      if (node.has("memory-component") || node.has("page-cache")) {
        stores.add(node);
      }
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        collect(e.getValue(), stores);
      }
    } else if (node.isArray()) {
      node.forEach(n -> collect(n, stores));
    }
  }

  /** Heap bytes for one store's memory components and page cache (defaults where not given). */
  private static long storeNeed(JsonNode memory, JsonNode cache) {
    MemoryComponentConfig d = MemoryComponentConfig.defaults();
    long size = d.size().bytes();
    long count = d.count();
    if (memory != null && memory.has("size")) {
      size = ByteSize.parse("memory-component.size", memory.get("size").asText()).bytes();
    }
    if (memory != null && memory.has("count")) {
      count = memory.get("count").asLong();
    }
    long cacheBytes = PageCacheConfig.defaults().size().bytes();
    if (cache != null && cache.has("size")) {
      cacheBytes = ByteSize.parse("page-cache.size", cache.get("size").asText()).bytes();
    }
    return (long) Math.ceil(size * count * HEAP_PER_BUDGET_BYTE) + cacheBytes;
  }

  private static long physicalMemory() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return 0;
  }
}
