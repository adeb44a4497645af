package org.strata.lsm.wal;

import static org.strata.lsm.io.BigEndian.getInt;
import static org.strata.lsm.io.BigEndian.getLong;
import static org.strata.lsm.io.BigEndian.putInt;
import static org.strata.lsm.io.BigEndian.putLong;

import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Encoding of write-ahead log records (docs/format.md): {@code bodyLength:u32, crc32c(body):u32,
 * body}, where the body is {@code firstLsn:u64, count:u32} followed by {@code count} operations
 * {@code kind:u8 (1 upsert, 2 delete), keyLength:u32, key, [valueLength:u32, value]}. The i-th
 * operation has sequence number firstLsn + i. A record is applied entirely or not at all.
 *
 * <p>A record of no operations is a <em>force mark</em>: its body is {@code nextLsn:u64, 0:u32,
 * forcedEnd:u64}, and it says that every byte of its segment before offset {@code forcedEnd} was
 * forced to stable storage before the mark was written. The log writes one right after each force,
 * so recovery can tell a damaged record the log had forced (corruption) from the torn tail a crash
 * leaves. It holds no sequence number of its own: {@code nextLsn} is the number of the next
 * operation, so the LSN checks of resynchronisation hold for it as for any record.
 */
final class LogRecordCodec {
  static final int HEADER = 8;
  /** Smallest record: header, first LSN and operation count. */
  static final int MIN_RECORD = HEADER + 12;
  /** Smallest encoded operation: kind and key length (a delete of an empty key). */
  static final int MIN_OP_BYTES = 5;
  static final byte UPSERT = 1;
  static final byte DELETE = 2;
  /** Body bytes of a force mark. */
  static final int MARK_BODY = 20;
  /** Bytes of a force mark, framing included. */
  static final int MARK_SIZE = HEADER + MARK_BODY;

  private LogRecordCodec() {}

  static int encodedSize(List<LogOp> ops) {
    int n = HEADER + 12;
    for (LogOp op : ops) {
      n += 1 + 4 + op.key().length + (op.isDelete() ? 0 : 4 + op.value().length);
    }
    return n;
  }

  /** Encodes into {@code buf} at {@code at}; returns the position after the record. */
  static int encode(List<LogOp> ops, long firstLsn, byte[] buf, int at) {
    int p = at + HEADER;
    putLong(buf, p, firstLsn);
    p += 8;
    putInt(buf, p, ops.size());
    p += 4;
    for (LogOp op : ops) {
      buf[p++] = op.isDelete() ? DELETE : UPSERT;
      putInt(buf, p, op.key().length);
      p += 4;
      System.arraycopy(op.key(), 0, buf, p, op.key().length);
      p += op.key().length;
      if (!op.isDelete()) {
        putInt(buf, p, op.value().length);
        p += 4;
        System.arraycopy(op.value(), 0, buf, p, op.value().length);
        p += op.value().length;
      }
    }
    int bodyLen = p - at - HEADER;
    putInt(buf, at, bodyLen);
    CRC32C crc = new CRC32C();
    crc.update(buf, at + HEADER, bodyLen);
    putInt(buf, at + 4, (int) crc.getValue());
    return p;
  }

  /**
   * Encodes a force mark into {@code buf} at {@code at}: every byte of the segment before {@code
   * forcedEnd} is forced; {@code nextLsn} is the sequence number the next operation will get.
   * Returns the position after it.
   */
  static int encodeMark(long nextLsn, long forcedEnd, byte[] buf, int at) {
    putLong(buf, at + HEADER, nextLsn);
    putInt(buf, at + HEADER + 8, 0);
    putLong(buf, at + HEADER + 12, forcedEnd);
    putInt(buf, at, MARK_BODY);
    CRC32C crc = new CRC32C();
    crc.update(buf, at + HEADER, MARK_BODY);
    putInt(buf, at + 4, (int) crc.getValue());
    return at + MARK_SIZE;
  }

  /** Whether the valid record at {@code at} is a force mark. */
  static boolean isMark(byte[] buf, int at) {
    return opCount(buf, at) == 0;
  }

  /** The forced offset a valid force mark at {@code at} certifies. */
  static long markForcedEnd(byte[] buf, int at) {
    return getLong(buf, at + HEADER + 12);
  }

  /**
   * Checks the record at {@code at} without applying it: its length fits before {@code limit}, its
   * checksum holds and its body parses exactly.
   *
   * @return the position after the record, or -1 if the bytes from {@code at} do not hold a valid
   *     record (torn or corrupt)
   */
  static int validate(byte[] buf, int at, int limit) {
    return walk(buf, at, limit, null, null);
  }

  /**
   * Decodes the record at {@code at} if it is whole and its checksum holds, and passes each of its
   * operations with LSN above {@code skipUpToLsn} to {@code out}. A record that fails applies
   * nothing.
   *
   * @return the position after the record, or -1 if the bytes from {@code at} do not hold a valid
   *     record (torn or corrupt)
   */
  static int decode(byte[] buf, int at, int limit, LogReplayer out, long skipUpToLsn) {
    if (limit - at < MIN_RECORD) {
      return -1;
    }
    int count = getInt(buf, at + HEADER + 8);
    int bodyLen = getInt(buf, at);
    int n = Math.max(0, Math.min(count, bodyLen / MIN_OP_BYTES));
    byte[][] keys = new byte[n][];
    byte[][] values = new byte[n][];
    // Parse fully before applying, so a malformed body applies nothing.
    int end = walk(buf, at, limit, keys, values);
    if (end < 0) {
      return -1;
    }
    long lsn = firstLsn(buf, at);
    for (int i = 0; i < count; i++) {
      if (lsn + i > skipUpToLsn) {
        out.apply(lsn + i, new LogOp(keys[i], values[i]));
      }
    }
    return end;
  }

  /**
   * Checks the record at {@code at}; when {@code keys} is not null, copies the operations' keys and
   * values into {@code keys} and {@code values} (each at least the operation count long).
   */
  private static int walk(byte[] buf, int at, int limit, byte[][] keys, byte[][] values) {
    if (at < 0 || limit - at < MIN_RECORD) {
      return -1;
    }
    int bodyLen = getInt(buf, at);
    if (bodyLen < 12 || bodyLen > limit - at - HEADER) {
      return -1;
    }
    CRC32C crc = new CRC32C();
    crc.update(buf, at + HEADER, bodyLen);
    if ((int) crc.getValue() != getInt(buf, at + 4)) {
      return -1;
    }
    int p = at + HEADER + 12;
    int end = at + HEADER + bodyLen;
    int count = getInt(buf, at + HEADER + 8);
    if (count < 0 || count > bodyLen / MIN_OP_BYTES || (keys != null && count > keys.length)) {
      return -1;
    }
    if (count == 0) { // a force mark
      return bodyLen == MARK_BODY ? end : -1;
    }
    for (int i = 0; i < count; i++) {
      if (p + MIN_OP_BYTES > end) {
        return -1;
      }
      byte kind = buf[p++];
      int kl = getInt(buf, p);
      p += 4;
      if (kl < 0 || kl > end - p || (kind != UPSERT && kind != DELETE)) {
        return -1;
      }
      if (keys != null) {
        keys[i] = Arrays.copyOfRange(buf, p, p + kl);
      }
      p += kl;
      if (kind == UPSERT) {
        if (p + 4 > end) {
          return -1;
        }
        int vl = getInt(buf, p);
        p += 4;
        if (vl < 0 || vl > end - p) {
          return -1;
        }
        if (keys != null) {
          values[i] = Arrays.copyOfRange(buf, p, p + vl);
        }
        p += vl;
      }
    }
    return p == end ? end : -1;
  }

  /** Where the first operation of the record at {@code at} starts. */
  static int firstOp(int at) {
    return at + HEADER + 12;
  }

  /**
   * The end of the operation that starts at {@code p} in a record {@link #validate} accepted (its
   * lengths are not checked again).
   */
  static int opEnd(byte[] buf, int p) {
    int q = p + 5 + getInt(buf, p + 1);
    return buf[p] == UPSERT ? q + 4 + getInt(buf, q) : q;
  }

  /** Sequence number of the first operation of the record at {@code at} (framing not checked). */
  static long firstLsn(byte[] buf, int at) {
    return getLong(buf, at + HEADER);
  }

  /** Number of operations of the record at {@code at} (framing not checked). */
  static int opCount(byte[] buf, int at) {
    return getInt(buf, at + HEADER + 8);
  }

  /** Sequence number of the last operation of the record at {@code at} (assumed valid). */
  static long lastLsn(byte[] buf, int at) {
    return firstLsn(buf, at) + opCount(buf, at) - 1;
  }
}
