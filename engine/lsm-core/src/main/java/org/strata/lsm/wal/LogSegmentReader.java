package org.strata.lsm.wal;

import static org.strata.lsm.io.BigEndian.getInt;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.wal.LogScan.Bad;
import org.strata.lsm.wal.LogScan.Intact;
import org.strata.lsm.wal.LogScan.Span;

/**
 * Splits the bytes of one log segment into runs of intact records and bad ranges. Records are read
 * one after the other; at a record that fails its framing or checksum the reader resynchronises by
 * scanning forward, byte by byte, for the next intact record (see {@link #resync}). Reads only; the
 * caller decides what a bad range means (a torn tail or corruption).
 */
final class LogSegmentReader {
  private LogSegmentReader() {}

  /**
   * What a scan of one segment found.
   *
   * @param spans intact runs and bad ranges in file order, covering every byte from the first
   *     record's offset to the end exactly once
   * @param markedForced the highest offset an intact force mark certifies as forced, or 0
   */
  record Scanned(List<Span> spans, long markedForced) {}

  /**
   * Scans {@code data}, the bytes of a segment whose records start at offset {@code start} (after
   * the header) and at sequence number {@code firstLsn} (the number in its file name).
   */
  static Scanned scan(byte[] data, int start, long firstLsn) {
    List<Span> spans = new ArrayList<>();
    long lastGood = firstLsn - 1;
    long markedForced = 0;
    int pos = start;
    int runStart = -1;
    long runFirst = 0;
    long runLast = 0;
    int runRecords = 0;
    long runOps = 0;
    while (pos < data.length) {
      int next = LogRecordCodec.validate(data, pos, data.length);
      if (next >= 0) {
        if (runStart < 0) {
          runStart = pos;
          runFirst = LogRecordCodec.firstLsn(data, pos);
          runRecords = 0;
          runOps = 0;
        }
        runLast = LogRecordCodec.lastLsn(data, pos);
        if (LogRecordCodec.isMark(data, pos)) {
          markedForced = Math.max(markedForced, LogRecordCodec.markForcedEnd(data, pos));
        } else {
          runRecords++;
          runOps += LogRecordCodec.opCount(data, pos);
        }
        lastGood = Math.max(lastGood, runLast);
        pos = next;
        continue;
      }
      if (runStart >= 0) {
        spans.add(new Intact(runStart, pos, runFirst, runLast, runRecords, runOps));
        runStart = -1;
      }
      int resume = resync(data, pos, lastGood);
      spans.add(new Bad(pos, resume - pos, lengthFits(data, pos)));
      pos = resume;
    }
    if (runStart >= 0) {
      spans.add(new Intact(runStart, pos, runFirst, runLast, runRecords, runOps));
    }
    return new Scanned(spans, markedForced);
  }

  /** Whether the record at {@code at} declares a body length that fits before the end. */
  private static boolean lengthFits(byte[] data, int at) {
    if (data.length - at < LogRecordCodec.MIN_RECORD) {
      return false;
    }
    int bodyLen = getInt(data, at);
    return bodyLen >= 12 && bodyLen <= data.length - at - LogRecordCodec.HEADER;
  }

  /**
   * The offset of the first intact record after the bad record at {@code bad}, or {@code
   * data.length} if none follows.
   *
   * <p>A candidate offset must hold a record whose framing and CRC32C hold <em>and</em> whose first
   * sequence number continues the log plausibly: above {@code lastGood} (the last operation read
   * before the bad bytes; a force mark carries the number of the operation after it) and at most
   * {@code lastGood + 1 + (candidate - bad)}, since within a
   * segment sequence numbers are consecutive and every operation takes at least {@value
   * LogRecordCodec#MIN_OP_BYTES} bytes. The CRC alone would not do: it passes random bytes with
   * probability 2^-32 per offset, and a segment has up to ~2^26 offsets to try. The 64-bit sequence
   * number must also land in a window no wider than the segment, which random bytes do with
   * probability below 2^-38; together a false match on garbage is below 2^-44 per segment. Bytes
   * that were once a valid record (a stale copy) carry a number at or below {@code lastGood} and
   * are refused by the same check.
   */
  private static int resync(byte[] data, int bad, long lastGood) {
    for (int y = bad + 1; y + LogRecordCodec.MIN_RECORD <= data.length; y++) {
      int bodyLen = getInt(data, y);
      if (bodyLen < 12 || bodyLen > data.length - y - LogRecordCodec.HEADER) {
        continue;
      }
      long first = LogRecordCodec.firstLsn(data, y);
      if (first <= lastGood || first - lastGood - 1 > (long) (y - bad)) {
        continue;
      }
      if (LogRecordCodec.opCount(data, y) < 0) {
        continue; // a force mark (no operations) is a record too
      }
      if (LogRecordCodec.validate(data, y, data.length) >= 0) {
        return y;
      }
    }
    return data.length;
  }
}
