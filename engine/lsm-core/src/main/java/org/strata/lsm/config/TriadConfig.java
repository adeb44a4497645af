package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The {@code triad} section: TRIAD's in-memory technique, TRIAD-MEM (Balmau et al., ATC 2017,
 * section 4.1), and its log technique, TRIAD-LOG (section 4.3; docs/configuration.md). TRIAD-DISK
 * is the merge policy {@code triad-disk}; all three together are the configuration {@code triad}.
 *
 * <p>With {@code log} on, a flush writes only a sorted index over the sealed commit-log segment
 * (key to the offset of its newest record there), and segment plus index become a level-0
 * component, a CL-SSTable, until a merge rewrites it into an ordinary component.
 *
 * <p>With {@code mem} on, a memory component sealed because it is full keeps its hot keys in
 * memory: their newest versions are logged again and carried into the next memory component, and
 * its flush writes only the other keys. If the newest versions of all its keys occupy less than
 * {@code flush-threshold}, nothing is flushed: every key is carried over, and the old log segment
 * is dropped all the same.
 *
 * @param mem {@code triad.mem}: TRIAD-MEM on or off, default off; null means the default
 * @param hotSelector {@code triad.hot-selector}: {@code top-k} (default) or {@code above-mean};
 *     null means the default
 * @param hotPercent {@code triad.hot-percent}: for {@code top-k}, the hot keys as a percentage of
 *     a memory component's capacity in entries (the paper's PERC_HOT), greater than 0 and at most
 *     50, default 1; null means the default
 * @param flushThreshold {@code triad.flush-threshold}: a full memory component whose keys' newest
 *     versions occupy less than this is not flushed (the paper's FLUSH_TH); 0 to half of {@code
 *     memory-component.size}; null (the default) means a quarter of {@code memory-component.size}
 * @param log {@code triad.log}: TRIAD-LOG on or off, default off; null means the default
 * @param hotKeys {@code triad.hot-keys}: for {@code top-k}, the number of hot keys (the paper's K
 *     as a system constant; its evaluation uses the top 1% of the key space), 1 to 2^31-1;
 *     when set it replaces {@code hot-percent}; null (the default) means {@code hot-percent}
 */
public record TriadConfig(
    @JsonProperty("mem") Boolean mem,
    @JsonProperty("hot-selector") HotKeySelector hotSelector,
    @JsonProperty("hot-percent") Double hotPercent,
    @JsonProperty("flush-threshold") ByteSize flushThreshold,
    @JsonProperty("log") Boolean log,
    @JsonProperty("hot-keys") @JsonSetter(nulls = Nulls.SKIP) Integer hotKeys) {

  public TriadConfig {
    mem = mem != null && mem;
    log = log != null && log;
    hotSelector = hotSelector == null ? HotKeySelector.TOP_K : hotSelector;
    hotPercent = ConfigChecks.number("triad.hot-percent", hotPercent, 1.0,
        v -> v > 0 && v <= 50, "a number greater than 0 and at most 50");
    if (hotKeys != null && hotKeys < 1) {
      throw InvalidConfigurationException.of("triad.hot-keys", hotKeys,
          "a number of keys from 1 to " + Integer.MAX_VALUE);
    }
    if (flushThreshold != null) {
      flushThreshold = ConfigChecks.size("triad.flush-threshold", flushThreshold, null, 0,
          1L << 39);
    }
  }

  /** The section without {@code hot-keys}: K from {@code hot-percent}. */
  public TriadConfig(Boolean mem, HotKeySelector hotSelector, Double hotPercent,
      ByteSize flushThreshold, Boolean log) {
    this(mem, hotSelector, hotPercent, flushThreshold, log, null);
  }

  /** The section without {@code log} and {@code hot-keys}: TRIAD-LOG off. */
  public TriadConfig(Boolean mem, HotKeySelector hotSelector, Double hotPercent,
      ByteSize flushThreshold) {
    this(mem, hotSelector, hotPercent, flushThreshold, null, null);
  }

  /** The defaults: TRIAD-MEM and TRIAD-LOG off. */
  public static TriadConfig defaults() {
    return new TriadConfig(null, null, null, null, null);
  }

  /** TRIAD-MEM on with the paper's defaults. */
  public static TriadConfig memOn() {
    return new TriadConfig(true, null, null, null, null);
  }

  /** TRIAD-LOG on alone. */
  public static TriadConfig logOn() {
    return new TriadConfig(null, null, null, null, true);
  }

  /** This section with TRIAD-LOG switched {@code on}. */
  public TriadConfig withLog(boolean on) {
    return new TriadConfig(mem, hotSelector, hotPercent, flushThreshold, on, hotKeys);
  }

  /**
   * The hot-key count K of {@code top-k} for a memtable of {@code memtableBytes} whose entries
   * average {@code entryBytes}: {@code hot-keys} if set, else {@code hot-percent} of the
   * memtable's capacity in entries (Algorithm 2), at least 1.
   */
  public long hotKeyCount(long memtableBytes, double entryBytes) {
    if (hotKeys != null) {
      return hotKeys;
    }
    return (long) Math.max(1, Math.floor(memtableBytes * hotPercent / 100 / entryBytes));
  }

  /**
   * The flush threshold in bytes for memtables of {@code memorySize} bytes ({@link
   * MemoryComponentConfig#memtableBytes()}): the configured one, or a quarter of {@code
   * memorySize}.
   */
  public long flushThresholdBytes(long memorySize) {
    return flushThreshold == null ? memorySize / 4 : flushThreshold.bytes();
  }
}
