package org.strata.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.ConfigMapper;
import org.strata.lsm.config.DeviceConfig;

/**
 * The {@code device} and {@code sweepWriteBandwidths} fields the engine papers' configurations
 * ({@link TriadReproductionConfig}, {@link IamConfig}) share: checked alike, each error naming
 * the paper.
 */
final class DeviceSettings {
  private DeviceSettings() {}

  /**
   * {@code device} with JSON null read as absent; refused here, naming the key, if the engine
   * would refuse it as a store's {@code device} section.
   */
  static JsonNode device(JsonNode device, String paper) {
    JsonNode d = device == null || device.isNull() ? null : device;
    if (d != null) {
      model(d, paper);
    }
    return d;
  }

  /** The device model of {@code device} (null for none), read as a store's section. */
  static DeviceConfig model(JsonNode device, String paper) {
    return device == null ? null : ConfigMapper.bind(device, paper + " configuration", null,
        "device", DeviceConfig.class);
  }

  /**
   * The sweep's write bandwidths (none if null), each at least 64KB; a sweep needs a device,
   * whose read bandwidth and force latency it scales.
   */
  static List<String> sweep(List<String> bandwidths, JsonNode device, String paper) {
    List<String> out = bandwidths == null ? List.of() : List.copyOf(bandwidths);
    for (String b : out) {
      check(b != null && !b.isBlank(), paper, "sweepWriteBandwidths lists an empty bandwidth");
      long v;
      try {
        v = ByteSize.parse("sweepWriteBandwidths", b).bytes();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(paper + ": sweepWriteBandwidths: " + e.getMessage(), e);
      }
      check(v >= 64 << 10, paper, "every sweep bandwidth must be at least 64KB, got " + b);
    }
    check(out.isEmpty() || device != null, paper, "a sweep needs a device (its read bandwidth"
        + " and force latency are scaled from it)");
    return out;
  }

  private static void check(boolean ok, String paper, String message) {
    if (!ok) {
      throw new IllegalArgumentException(paper + ": " + message);
    }
  }
}
