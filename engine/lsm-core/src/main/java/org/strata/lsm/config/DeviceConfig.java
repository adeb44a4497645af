package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The {@code device} section: the storage device a store runs on, as a model that turns the bytes
 * the store moves into time (docs/configuration.md, "Device"). Absent (the default) means no model:
 * the store runs at whatever speed the file system gives, as before. When set, every byte the store
 * writes to a file (log, flushes, merges) costs {@code 1 / write-bandwidth} seconds of the device,
 * every byte it reads from a file (merges, lookups that miss the page cache, recovery) {@code 1 /
 * read-bandwidth}, and every force {@code force-latency-ms}; the device serves one request at a
 * time, so these share its time, and a caller waits until the device has time for it. Flushes,
 * log writes and foreground reads go ahead of merges.
 *
 * @param name {@code device.name}: a label for reports; default {@code device}
 * @param writeBandwidth {@code device.write-bandwidth}: bytes per second written, 64KB to 1TB
 * @param readBandwidth {@code device.read-bandwidth}: bytes per second read, 64KB to 1TB; null
 *     means the write bandwidth
 * @param forceLatencyMs {@code device.force-latency-ms}: milliseconds of device time a force
 *     (fsync) of a file or directory takes, 0 to 10000; null means 0
 */
public record DeviceConfig(
    @JsonProperty("name") String name,
    @JsonProperty("write-bandwidth") ByteSize writeBandwidth,
    @JsonProperty("read-bandwidth") ByteSize readBandwidth,
    @JsonProperty("force-latency-ms") Double forceLatencyMs) {

  public DeviceConfig {
    name = name == null ? "device" : name;
    if (name.isBlank() || name.length() > 64) {
      throw InvalidConfigurationException.of("device.name", name, "a label of 1 to 64"
          + " characters");
    }
    if (writeBandwidth == null) {
      throw InvalidConfigurationException.missing("device.write-bandwidth", "a device needs its"
          + " write bandwidth (a size per second, e.g. 20MB)");
    }
    writeBandwidth = ConfigChecks.size("device.write-bandwidth", writeBandwidth, null, 64 << 10,
        1L << 40);
    readBandwidth = ConfigChecks.size("device.read-bandwidth", readBandwidth, writeBandwidth,
        64 << 10, 1L << 40);
    forceLatencyMs = ConfigChecks.number("device.force-latency-ms", forceLatencyMs, 0.0,
        v -> v >= 0 && v <= 10_000, "a number of milliseconds from 0 to 10000");
  }

  /** A device of {@code bytesPerSecond} for reads and writes, forces free. */
  public static DeviceConfig of(String name, long bytesPerSecond) {
    return new DeviceConfig(name, ByteSize.ofBytes(bytesPerSecond), null, null);
  }

  /** One line: name, bandwidths, force latency. */
  public String describe() {
    return String.format(Locale.ROOT, "%s: writes %s/s, reads %s/s, force %s ms", name,
        ByteSize.format(writeBandwidth.bytes()), ByteSize.format(readBandwidth.bytes()),
        forceLatencyMs % 1 == 0 ? Long.toString(forceLatencyMs.longValue())
            : Double.toString(forceLatencyMs));
  }

  /** The device this section describes, timed on {@code clock}. */
  public org.strata.lsm.io.Device open(org.strata.lsm.io.Clock clock) {
    return new org.strata.lsm.io.Device(name, writeBandwidth.bytes(), readBandwidth.bytes(),
        forceLatencyMs, clock);
  }
}
