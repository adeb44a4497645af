package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The {@code memory-component} section: how much an index buffers in memory before a flush.
 *
 * @param size {@code memory-component.size}: budget of one memory component, counted as the bytes
 *     its entries really occupy (every write's key and value plus about 30 bytes of header,
 *     skip-list links and alignment, overwritten versions included), 4KB to 1TB, default 64MB; null means the
 *     default
 * @param count {@code memory-component.count}: memory components per index (one active, the rest
 *     flushing), 1 to 16, default 2; null means the default
 */
public record MemoryComponentConfig(
    @JsonProperty("size") ByteSize size,
    @JsonProperty("count") Integer count) {

  public MemoryComponentConfig {
    size = ConfigChecks.size("memory-component.size", size, ByteSize.ofBytes(64L << 20), 4 << 10,
        1L << 40);
    count = ConfigChecks.integer("memory-component.count", count, 2, 1, 16);
  }

  /** The defaults: 64MB, 2 components. */
  public static MemoryComponentConfig defaults() {
    return new MemoryComponentConfig(null, null);
  }

  /** Memory components of {@code bytes} bytes, {@code count} of them. */
  public static MemoryComponentConfig of(long bytes, int count) {
    return new MemoryComponentConfig(ByteSize.ofBytes(bytes), count);
  }
}
