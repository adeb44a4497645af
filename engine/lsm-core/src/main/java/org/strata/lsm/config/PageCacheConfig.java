package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The {@code page-cache} section.
 *
 * @param size {@code page-cache.size}: decoded pages kept in memory, shared by the store's reads,
 *     0 to 1TB, default 128MB; null means the default
 */
public record PageCacheConfig(@JsonProperty("size") ByteSize size) {

  public PageCacheConfig {
    size = ConfigChecks.size("page-cache.size", size, ByteSize.ofBytes(128L << 20), 0, 1L << 40);
  }

  /** The default: 128MB. */
  public static PageCacheConfig defaults() {
    return new PageCacheConfig(null);
  }

  /** A cache of {@code bytes} bytes. */
  public static PageCacheConfig of(long bytes) {
    return new PageCacheConfig(ByteSize.ofBytes(bytes));
  }
}
