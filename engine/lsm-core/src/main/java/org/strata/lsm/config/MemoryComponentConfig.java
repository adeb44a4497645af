package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The {@code memory-component} section: how much an index buffers in memory before a flush.
 *
 * @param size {@code memory-component.size}: budget of one memory component, counted as the bytes
 *     its entries really occupy (every write's key and value plus about 30 bytes of header,
 *     skip-list links and alignment, overwritten versions included), 4KB to 1TB, default 64MB; null
 *     means the default
 * @param count {@code memory-component.count}: memory components per index (one active, the rest
 *     flushing), 1 to 16, default 2; null means the default
 * @param liveSize {@code memory-component.live-size}: the active component is also full once the
 *     newest version of each of its keys, alone, occupies this many bytes (a memtable that
 *     absorbs an update in place, as TRIAD's model has it, while {@code size} bounds every version
 *     held, as that model's commit log is bounded); 4KB to {@code size}; null (the default) means
 *     no such bound. Only for a standalone store: a dataset's indexes seal together on their
 *     shared budget
 */
public record MemoryComponentConfig(
    @JsonProperty("size") ByteSize size,
    @JsonProperty("count") Integer count,
    @JsonProperty("live-size") ByteSize liveSize) {

  public MemoryComponentConfig {
    size = ConfigChecks.size("memory-component.size", size, ByteSize.ofBytes(64L << 20), 4 << 10,
        1L << 40);
    count = ConfigChecks.integer("memory-component.count", count, 2, 1, 16);
    if (liveSize != null && (liveSize.bytes() < 4 << 10 || liveSize.bytes() > size.bytes())) {
      throw InvalidConfigurationException.of("memory-component.live-size", liveSize,
          "a size from 4KB to memory-component.size (" + size + "): the newest versions are"
          + " part of what size counts");
    }
  }

  /** The section without a live-size bound. */
  public MemoryComponentConfig(ByteSize size, Integer count) {
    this(size, count, null);
  }

  /**
   * The bytes of a memtable in TRIAD's sense: {@code live-size} if set, else {@code size}
   * (TRIAD-MEM sizes its hot set and flush threshold from it).
   */
  public long memtableBytes() {
    return liveSize == null ? size.bytes() : liveSize.bytes();
  }

  /** This section with {@code live-size} set to {@code bytes}. */
  public MemoryComponentConfig withLiveSize(long bytes) {
    return new MemoryComponentConfig(size, count, ByteSize.ofBytes(bytes));
  }

  /** The defaults: 64MB, 2 components. */
  public static MemoryComponentConfig defaults() {
    return new MemoryComponentConfig(null, null, null);
  }

  /** Memory components of {@code bytes} bytes, {@code count} of them. */
  public static MemoryComponentConfig of(long bytes, int count) {
    return new MemoryComponentConfig(ByteSize.ofBytes(bytes), count, null);
  }
}
