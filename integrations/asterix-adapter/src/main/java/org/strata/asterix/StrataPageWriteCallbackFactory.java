package org.strata.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMPageWriteCallbackFactory;
import org.apache.hyracks.storage.common.IResource;
import org.apache.hyracks.storage.common.buffercache.IPageWriteCallback;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoThrottle;

/**
 * Applies Strata's I/O budget to Hyracks: every page a flush, merge or bulk load writes is first
 * taken from an {@link IoThrottle} (flushes go ahead of merges), and the component's files are
 * forced every {@code forceBytes} written, Strata's {@code force-bytes} (16 MB by default, like
 * AsterixDB's {@code storage.disk.force.bytes}).
 *
 * <p>Give every index of a node (or of a partition) the same factory, or factories built on the
 * same throttle, to share one budget among them. The throttle itself is not serialized: a factory
 * read back from its JSON form makes a throttle of its own with the saved rate.
 */
public final class StrataPageWriteCallbackFactory implements ILSMPageWriteCallbackFactory {
  private static final long serialVersionUID = 1L;

  /** Strata's default force interval, 16 MB. */
  public static final long DEFAULT_FORCE_BYTES = 16L << 20;

  private final long bytesPerSecond;
  private final long forceBytes;
  private transient IoThrottle throttle;
  private transient PageWriteStats stats;

  /**
   * A factory with a throttle of its own.
   *
   * @param bytesPerSecond the write budget; 0 for unlimited
   * @param forceBytes bytes between forces; 0 to force only when a component ends
   */
  public StrataPageWriteCallbackFactory(long bytesPerSecond, long forceBytes) {
    this(new IoThrottle(check("write-rate", bytesPerSecond), Clock.system()), forceBytes);
  }

  /**
   * A factory over a shared throttle.
   *
   * @param throttle the budget shared with other factories or with Strata stores
   * @param forceBytes bytes between forces; 0 to force only when a component ends
   */
  public StrataPageWriteCallbackFactory(IoThrottle throttle, long forceBytes) {
    this.bytesPerSecond = throttle.bytesPerSecond();
    this.forceBytes = check("force-bytes", forceBytes);
    this.throttle = throttle;
    this.stats = new PageWriteStats();
  }

  private static long check(String name, long value) {
    if (value < 0) {
      throw InvalidConfigurationException.of(name, value, "a number of bytes >= 0");
    }
    return value;
  }

  @Override
  public void initialize(INCServiceContext ctx, IResource resource) {
    ensureState();
  }

  @Override
  public IPageWriteCallback createPageWriteCallback() {
    ensureState();
    return new ThrottledPageWriteCallback(throttle, forceBytes, stats);
  }

  private synchronized void ensureState() {
    if (throttle == null) {
      throttle = new IoThrottle(bytesPerSecond, Clock.system());
    }
    if (stats == null) {
      stats = new PageWriteStats();
    }
  }

  /** What this factory's callbacks have written and forced. */
  public PageWriteStats stats() {
    ensureState();
    return stats;
  }

  /** The throttle every page goes through. */
  public IoThrottle throttle() {
    ensureState();
    return throttle;
  }

  /** Bytes between forces; 0 when only the end of a component forces. */
  public long forceBytes() {
    return forceBytes;
  }

  @Override
  public JsonNode toJson(IPersistedResourceRegistry registry) {
    ObjectNode json = registry.getClassIdentifier(getClass(), serialVersionUID);
    json.put("bytesPerSecond", bytesPerSecond);
    json.put("forceBytes", forceBytes);
    return json;
  }

  /** The JSON counterpart of {@link #toJson}, as Hyracks' persisted resource registry calls it. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new StrataPageWriteCallbackFactory(json.path("bytesPerSecond").asLong(0),
        json.path("forceBytes").asLong(DEFAULT_FORCE_BYTES));
  }
}
