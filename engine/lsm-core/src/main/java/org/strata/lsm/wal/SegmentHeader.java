package org.strata.lsm.wal;

import static org.strata.lsm.io.BigEndian.getInt;
import static org.strata.lsm.io.BigEndian.getLong;
import static org.strata.lsm.io.BigEndian.putInt;
import static org.strata.lsm.io.BigEndian.putLong;

import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The first {@value #SIZE} bytes of a log segment (docs/format.md): {@code magic "STRATAWL",
 * version:u32 (2), logId:16 bytes, firstLsn:u64, crc32c:u32} of the 36 bytes before it. The log id
 * names the log the segment belongs to (a store's, or a dataset partition's), so a segment copied
 * from another log, or a whole log directory given to the wrong store, is refused rather than
 * replayed; the first sequence number must equal the one in the file name. Segments written before
 * headers existed (format 1) start directly with a record; a log's catalogue says which those are.
 */
public record SegmentHeader(UUID logId, long firstLsn) {
  /** Bytes of the header; the first record of a segment starts here. */
  public static final int SIZE = 40;
  /** Format of segments with this header. */
  public static final int VERSION = 2;
  private static final long MAGIC = 0x535452415441574CL; // "STRATAWL"

  /** The header's bytes. */
  byte[] encode() {
    byte[] b = new byte[SIZE];
    putLong(b, 0, MAGIC);
    putInt(b, 8, VERSION);
    putLong(b, 12, logId.getMostSignificantBits());
    putLong(b, 20, logId.getLeastSignificantBits());
    putLong(b, 28, firstLsn);
    CRC32C crc = new CRC32C();
    crc.update(b, 0, SIZE - 4);
    putInt(b, SIZE - 4, (int) crc.getValue());
    return b;
  }

  /** What the first bytes of a segment file are. */
  enum Form {
    /** A header whose magic, version and checksum hold. */
    HEADER,
    /** No header magic: a segment of format 1, whose first record starts at offset 0. */
    NO_HEADER,
    /** The header magic, but the header is cut short or fails its checksum or version. */
    DAMAGED
  }

  /**
   * Reads the header of a segment's bytes.
   *
   * @param header filled with the parsed header when the result is {@link Form#HEADER}
   */
  static Form read(byte[] data, SegmentHeader[] header) {
    if (data.length < 8 || getLong(data, 0) != MAGIC) {
      // A file of fewer than 8 bytes whose bytes start the magic is a header cut short.
      return data.length < 8 && data.length > 0 && startsMagic(data) ? Form.DAMAGED
          : Form.NO_HEADER;
    }
    if (data.length < SIZE) {
      return Form.DAMAGED;
    }
    CRC32C crc = new CRC32C();
    crc.update(data, 0, SIZE - 4);
    if ((int) crc.getValue() != getInt(data, SIZE - 4) || getInt(data, 8) != VERSION) {
      return Form.DAMAGED;
    }
    header[0] = new SegmentHeader(new UUID(getLong(data, 12), getLong(data, 20)),
        getLong(data, 28));
    return Form.HEADER;
  }

  private static boolean startsMagic(byte[] data) {
    byte[] m = new byte[8];
    putLong(m, 0, MAGIC);
    for (int i = 0; i < data.length; i++) {
      if (data[i] != m[i]) {
        return false;
      }
    }
    return true;
  }
}
