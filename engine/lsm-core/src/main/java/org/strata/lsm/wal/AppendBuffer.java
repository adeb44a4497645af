package org.strata.lsm.wal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The records appended to a {@link WriteAheadLog} and not yet written out to a segment, with the
 * segment rolls asked for between them (see {@link WriteAheadLog#roll()}) and the sequence
 * numbers appends have reached. Two byte buffers take turns: while one is written out, appends go
 * to the other, so a write-out allocates nothing.
 *
 * <p>Guarded by the monitor of the log that owns it (the log's third lock, after {@code
 * forceLock} and {@code writeLock}): the log holds the buffer in a field guarded by its monitor,
 * and every method here asserts that the caller holds it.
 */
final class AppendBuffer {
  /** Buffered bytes at which a writer writes the buffer out (see writeOutIfLarge). */
  static final int WRITE_OUT_THRESHOLD = 1 << 20;
  private static final int INITIAL = 64 * 1024;

  private final Object guard;
  private byte[] pending = new byte[INITIAL];
  private int pendingLen;
  // The buffer appends switch to when pending is written out: the one written out last time,
  // free again (writes out are serialized by writeLock and finish before the next begins); null
  // while one is being written.
  private byte[] spare = new byte[INITIAL];
  private long lastAppendedLsn;
  // The first sequence number of the segment appends go to (after the rolls asked for).
  private long appendSegmentFirst;
  // Segment rolls asked for and not yet carried out: {offset in pending, first LSN of the new
  // segment}, in order.
  private final ArrayDeque<long[]> pendingRolls = new ArrayDeque<>();

  /**
   * What a write-out takes from the buffer.
   *
   * @param data the bytes, {@code [0, len)} of them
   * @param upTo the sequence number of the last operation they hold
   * @param rolls the rolls between them: {offset in data, first LSN of the new segment}
   */
  record Batch(byte[] data, int len, long upTo, List<long[]> rolls) {}

  /** An empty buffer whose appends follow {@code lastLsn}, guarded by {@code guard}'s monitor. */
  AppendBuffer(Object guard, long lastLsn) {
    this.guard = guard;
    this.lastAppendedLsn = lastLsn;
    this.appendSegmentFirst = lastLsn + 1;
  }

  private boolean held() {
    return Thread.holdsLock(guard);
  }

  /**
   * Encodes one record of {@code ops} ({@code size} bytes encoded) after the buffered ones and
   * returns the sequence number of its last operation.
   */
  long append(List<LogOp> ops, int size) {
    assert held() : "the append buffer is guarded by its log's monitor";
    if (pendingLen + size > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLen + size));
    }
    long first = lastAppendedLsn + 1;
    pendingLen = LogRecordCodec.encode(ops, first, pending, pendingLen);
    lastAppendedLsn = first + ops.size() - 1;
    return lastAppendedLsn;
  }

  /**
   * Takes {@code count} sequence numbers for a write that is not logged (durability {@code
   * unlogged}) and returns the last: nothing is buffered.
   */
  long skip(int count) {
    assert held() : "the append buffer is guarded by its log's monitor";
    lastAppendedLsn += count;
    return lastAppendedLsn;
  }

  /** Encodes a force mark certifying {@code forcedEnd} after the buffered records. */
  void appendMark(long forcedEnd) {
    assert held() : "the append buffer is guarded by its log's monitor";
    if (pendingLen + LogRecordCodec.MARK_SIZE > pending.length) {
      pending = Arrays.copyOf(pending, pending.length * 2);
    }
    pendingLen = LogRecordCodec.encodeMark(lastAppendedLsn + 1, forcedEnd, pending, pendingLen);
  }

  /**
   * Marks a roll at the current end of the buffer: the next segment starts at the next sequence
   * number. False (nothing marked) if nothing was appended since the segment appends go to
   * started, or since the roll before: a new segment would take its name.
   */
  boolean markRoll() {
    assert held() : "the append buffer is guarded by its log's monitor";
    if (appendSegmentFirst == lastAppendedLsn + 1) {
      return false;
    }
    pendingRolls.add(new long[] {pendingLen, lastAppendedLsn + 1});
    appendSegmentFirst = lastAppendedLsn + 1;
    return true;
  }

  /** Highest sequence number appended. */
  long lastLsn() {
    assert held() : "the append buffer is guarded by its log's monitor";
    return lastAppendedLsn;
  }

  /** Bytes buffered. */
  int length() {
    assert held() : "the append buffer is guarded by its log's monitor";
    return pendingLen;
  }

  /** Whether rolls were asked for and not carried out. */
  boolean hasRolls() {
    assert held() : "the append buffer is guarded by its log's monitor";
    return !pendingRolls.isEmpty();
  }

  /** Whether the buffer holds neither bytes nor rolls. */
  boolean isEmpty() {
    assert held() : "the append buffer is guarded by its log's monitor";
    return pendingLen == 0 && pendingRolls.isEmpty();
  }

  /** Takes everything buffered, rolls included, for a write-out; appends go to the spare. */
  Batch take() {
    assert held() : "the append buffer is guarded by its log's monitor";
    Batch b = new Batch(pending, pendingLen, lastAppendedLsn, new ArrayList<>(pendingRolls));
    pendingRolls.clear();
    pending = spare != null ? spare : new byte[INITIAL];
    spare = null;
    pendingLen = 0;
    return b;
  }

  /** Keeps {@code data}, written out, as the next spare unless one append made it huge. */
  void written(byte[] data) {
    assert held() : "the append buffer is guarded by its log's monitor";
    spare = data.length <= 4 * WRITE_OUT_THRESHOLD ? data : new byte[INITIAL];
  }

  /**
   * Puts {@code data[from, len)}, which a failed write-out did not write, back in front of the
   * buffer, with the rolls that were not carried out.
   */
  void retain(byte[] data, int from, int len, List<long[]> rollsLeft) {
    assert held() : "the append buffer is guarded by its log's monitor";
    int kept = len - from;
    byte[] merged = new byte[Math.max(INITIAL, kept + pendingLen)];
    System.arraycopy(data, from, merged, 0, kept);
    System.arraycopy(pending, 0, merged, kept, pendingLen);
    ArrayDeque<long[]> rolls = new ArrayDeque<>();
    for (long[] r : rollsLeft) {
      rolls.add(new long[] {r[0] - from, r[1]});
    }
    for (long[] r : pendingRolls) {
      rolls.add(new long[] {r[0] + kept, r[1]});
    }
    pendingRolls.clear();
    pendingRolls.addAll(rolls);
    pending = merged;
    pendingLen = kept + pendingLen;
    spare = new byte[INITIAL];
  }
}
