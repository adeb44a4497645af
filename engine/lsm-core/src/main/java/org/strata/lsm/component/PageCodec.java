package org.strata.lsm.component;

import org.strata.lsm.io.BigEndian;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;

/**
 * Framing of pages: {@code bodyLength:u32, type:u8, body, crc32c:u32}, where the CRC32C covers
 * the length, the type and the body. All integers are big-endian.
 */
public final class PageCodec {
  private PageCodec() {}

  /** Computes the CRC32C of {@code buf[at, at+len)} and writes it right after. */
  static void sealChecksum(byte[] buf, int at, int len) {
    CRC32C crc = new CRC32C();
    crc.update(buf, at, len);
    BigEndian.putInt(buf, at + len, (int) crc.getValue());
  }

  /** Length of the whole framed page whose header starts at {@code buf[at]}. */
  static long framedLength(byte[] buf, int at) {
    return PageBuilder.HEADER + (BigEndian.getInt(buf, at) & 0xFFFFFFFFL) + PageBuilder.TRAILER;
  }

  /**
   * Checks the framed page in {@code buf[at, at+len)} and returns its body, copied.
   *
   * @param expected the page type the caller expects
   * @param file and {@code offset} name the page in errors
   * @throws CorruptionException on a bad length, type or checksum
   */
  public static byte[] checkedBody(byte[] buf, int at, int len, PageType expected, Path file,
      long offset) {
    int bodyLen = check(buf, at, len, expected, file, offset);
    return Arrays.copyOfRange(buf, at + PageBuilder.HEADER, at + PageBuilder.HEADER + bodyLen);
  }

  /**
   * Checks the framed page in {@code buf[at, at+len)} and returns its body's length (the body
   * starts {@link PageBuilder#HEADER} bytes after {@code at}).
   *
   * @throws CorruptionException on a bad length, type or checksum
   */
  private static int check(byte[] buf, int at, int len, PageType expected, Path file,
      long offset) {
    if (len < PageBuilder.HEADER + PageBuilder.TRAILER) {
      throw new CorruptionException(file, offset, "page of " + len + " bytes is too short");
    }
    int bodyLen = BigEndian.getInt(buf, at);
    if (bodyLen != len - PageBuilder.HEADER - PageBuilder.TRAILER) {
      throw new CorruptionException(file, offset,
          "page length field says " + bodyLen + " body bytes, expected "
              + (len - PageBuilder.HEADER - PageBuilder.TRAILER));
    }
    CRC32C crc = new CRC32C();
    crc.update(buf, at, PageBuilder.HEADER + bodyLen);
    int stored = BigEndian.getInt(buf, at + PageBuilder.HEADER + bodyLen);
    if ((int) crc.getValue() != stored) {
      throw new CorruptionException(file, offset, "page checksum mismatch (CRC32C stored "
          + Integer.toHexString(stored) + ", computed " + Integer.toHexString((int) crc.getValue())
          + ")");
    }
    PageType type = PageType.of(buf[at + 4]);
    if (type != expected) {
      throw new CorruptionException(file, offset, "page type " + buf[at + 4] + " where a "
          + expected + " page was expected");
    }
    return bodyLen;
  }

  /**
   * Checks and decodes a LEAF or INTERIOR page in place: the page reads its body from {@code buf}
   * without a copy, so {@code buf[at, at+len)} must not change while the page is in use (a page
   * read for the cache has an array of its own; the merge's leaf scanner drops each page before
   * it reads over it).
   */
  public static Page decode(byte[] buf, int at, int len, PageType expected, Path file,
      long offset) {
    int bodyLen = check(buf, at, len, expected, file, offset);
    try {
      return new Page(expected, buf, at + PageBuilder.HEADER, bodyLen);
    } catch (IllegalArgumentException e) {
      throw new CorruptionException(file, offset, e.getMessage());
    }
  }
}
