package org.strata.lsm;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What recovery does when a write-ahead log record fails its checksum or framing ({@code
 * log.recovery-mode}; docs/format.md says exactly what each mode may lose). A bad record is a
 * <em>torn tail</em> when it is in the last segment and no intact record follows it (a process
 * killed in the middle of a write leaves one); anything else is <em>corruption</em>. A bad record
 * all of whose operations are already in disk components loses nothing and is passed over by every
 * mode but {@link #ABSOLUTE_CONSISTENCY}.
 */
public enum LogRecoveryMode {
  /**
   * The default: a torn tail is cut off (it was never acknowledged under {@code sync}); corruption
   * refuses to open the store, naming the segment, the offset and the intact records that follow.
   */
  TOLERATE_TORN_TAIL,
  /** Any bad record, a torn tail included, refuses to open the store. */
  ABSOLUTE_CONSISTENCY,
  /**
   * Replays up to the first bad record and stops: the rest of that segment and every later segment
   * are moved aside into {@code *.corrupt} files (never deleted), and new writes get sequence
   * numbers above every record set aside.
   */
  POINT_IN_TIME,
  /**
   * Replays every intact record, skipping each bad range; only the operations of the bad bytes are
   * lost.
   */
  SKIP_CORRUPTED;

  /** The configuration name, e.g. {@code tolerate-torn-tail}. */
  @JsonValue
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
