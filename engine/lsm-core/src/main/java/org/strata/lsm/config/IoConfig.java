package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The {@code io} section: how flushes and merges write.
 *
 * @param writeRateLimit {@code io.write-rate-limit}: bytes per second that flushes and merges
 *     together may write, 0 (unlimited, the default) or 64KB to 1TB
 * @param forceBytes {@code io.force-bytes}: a flush or merge forces its file after every this many
 *     bytes and at the end; 0 forces only at the end; 0 to 1TB, default 16MB
 * @param pageSize {@code io.page-size}: target size of B+-tree pages, 512 bytes to 1MB, default 4KB
 */
public record IoConfig(
    @JsonProperty("write-rate-limit") ByteSize writeRateLimit,
    @JsonProperty("force-bytes") ByteSize forceBytes,
    @JsonProperty("page-size") ByteSize pageSize) {

  public IoConfig {
    writeRateLimit = ConfigChecks.size("io.write-rate-limit", writeRateLimit, ByteSize.ofBytes(0),
        0, 1L << 40);
    if (writeRateLimit.bytes() > 0 && writeRateLimit.bytes() < 64 << 10) {
      throw InvalidConfigurationException.of("io.write-rate-limit", writeRateLimit,
          "0 (unlimited) or at least 64KB per second");
    }
    forceBytes = ConfigChecks.size("io.force-bytes", forceBytes, ByteSize.ofBytes(16L << 20), 0,
        1L << 40);
    pageSize = ConfigChecks.size("io.page-size", pageSize, ByteSize.ofBytes(4096), 512, 1 << 20);
  }

  /** The defaults: unlimited, a force every 16MB, 4KB pages. */
  public static IoConfig defaults() {
    return new IoConfig(null, null, null);
  }

  /** The given limit, force interval and page size, in bytes. */
  public static IoConfig of(long writeRateLimit, long forceBytes, int pageSize) {
    return new IoConfig(ByteSize.ofBytes(writeRateLimit), ByteSize.ofBytes(forceBytes),
        ByteSize.ofBytes(pageSize));
  }
}
