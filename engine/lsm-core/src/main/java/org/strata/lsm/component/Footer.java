package org.strata.lsm.component;

import org.strata.lsm.io.BigEndian;

import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;

/**
 * The fixed 32-byte footer at the end of every component file: {@code magic:u64, version:u32,
 * metaOffset:u64, metaLength:u32, reserved:u32, crc32c:u32} (CRC over the first 28 bytes).
 */
final class Footer {
  static final int SIZE = 32;
  static final long MAGIC = 0x5354524154414331L; // "STRATAC1"

  private Footer() {}

  static byte[] encode(long metaOffset, int metaLength) {
    byte[] b = new byte[SIZE];
    BigEndian.putLong(b, 0, MAGIC);
    BigEndian.putInt(b, 8, ComponentMeta.FORMAT_VERSION);
    BigEndian.putLong(b, 12, metaOffset);
    BigEndian.putInt(b, 20, metaLength);
    BigEndian.putInt(b, 24, 0);
    CRC32C crc = new CRC32C();
    crc.update(b, 0, 28);
    BigEndian.putInt(b, 28, (int) crc.getValue());
    return b;
  }

  /** Returns {metaOffset, metaLength} after checking magic, version and checksum. */
  static long[] decode(byte[] b, Path file, long fileSize) {
    long at = fileSize - SIZE;
    if (BigEndian.getLong(b, 0) != MAGIC) {
      throw new CorruptionException(file, at, "footer magic is missing (not a Strata component,"
          + " or truncated)");
    }
    CRC32C crc = new CRC32C();
    crc.update(b, 0, 28);
    if ((int) crc.getValue() != BigEndian.getInt(b, 28)) {
      throw new CorruptionException(file, at, "footer checksum mismatch");
    }
    int version = BigEndian.getInt(b, 8);
    if (version != ComponentMeta.FORMAT_VERSION) {
      throw new CorruptionException(file, at, "unsupported component format version " + version);
    }
    long metaOffset = BigEndian.getLong(b, 12);
    long metaLength = BigEndian.getInt(b, 20) & 0xFFFFFFFFL;
    if (metaOffset < 0 || metaOffset + metaLength != at) {
      throw new CorruptionException(file, at, "footer points outside the file (meta at "
          + metaOffset + ", length " + metaLength + ")");
    }
    return new long[] {metaOffset, metaLength};
  }
}
