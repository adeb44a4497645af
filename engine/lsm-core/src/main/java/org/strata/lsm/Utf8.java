package org.strata.lsm;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Strict UTF-8 conversion for data: keys, field names and values. Java's own conversions never
 * fail: {@code String.getBytes(UTF_8)} writes {@code ?} for a lone surrogate and {@code new
 * String(bytes, UTF_8)} writes U+FFFD for malformed bytes, so two different keys could be stored
 * as one. These methods refuse such text instead, with an {@link IllegalArgumentException} naming
 * what was bad ({@code key}, {@code field name 'x'}, {@code value of field 'x'}), where, and what
 * is allowed; a string that converts is stored byte for byte and read back with the same code
 * points.
 *
 * <p>Text without surrogates always encodes, and bytes whose lenient decoding holds no U+FFFD were
 * well formed, so both take the JDK's fast path; everything else goes through a {@link
 * CharsetEncoder} or {@link CharsetDecoder} set to {@link CodingErrorAction#REPORT}.
 */
public final class Utf8 {
  private static final String ALLOWED_TEXT = "keys, field names and values must be valid Unicode"
      + " text (a high surrogate U+D800..U+DBFF only directly before a low surrogate"
      + " U+DC00..U+DFFF)";
  private static final String ALLOWED_BYTES = "text must be well-formed UTF-8 (RFC 3629: no"
      + " stray continuation bytes, truncated or overlong sequences, or encoded surrogates)";
  private static final int SHOWN = 40;

  private Utf8() {}

  /** {@link #encode(String, String, String)} of text named by {@code what} alone, e.g. "key". */
  public static byte[] encode(String text, String what) {
    return encode(text, what, null);
  }

  /**
   * The UTF-8 bytes of {@code text}.
   *
   * @param what what the text is, for the error: {@code "key"}, {@code "field name"}, {@code
   *     "value of field"}
   * @param name the field it belongs to, shown quoted after {@code what}; null for none
   * @throws IllegalArgumentException if {@code text} holds a lone surrogate
   */
  public static byte[] encode(String text, String what, String name) {
    if (!hasSurrogate(text)) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    CharBuffer in = CharBuffer.wrap(text);
    ByteBuffer out = ByteBuffer.allocate(Math.multiplyExact(text.length(), 3));
    CoderResult r = encoder.encode(in, out, true);
    if (!r.isError()) {
      r = encoder.flush(out);
    }
    if (r.isError()) {
      int at = in.position();
      throw new IllegalArgumentException(subject(what, name) + " is not valid Unicode text: lone"
          + " surrogate " + codeUnit(text.charAt(at)) + " at index " + at + "; " + ALLOWED_TEXT);
    }
    return Arrays.copyOf(out.array(), out.position());
  }

  /** {@link #check(String, String, String)} of text named by {@code what} alone. */
  public static void check(String text, String what) {
    check(text, what, null);
  }

  /**
   * Checks that {@code text} converts to UTF-8, without converting it; throws as {@link
   * #encode(String, String, String)} does.
   */
  public static void check(String text, String what, String name) {
    if (hasSurrogate(text)) {
      encode(text, what, name);
    }
  }

  /** {@link #decode(byte[], int, int, String, String)} of a whole array. */
  public static String decode(byte[] bytes, String what) {
    return decode(bytes, 0, bytes.length, what, null);
  }

  /** {@link #decode(byte[], int, int, String, String)} of a whole array. */
  public static String decode(byte[] bytes, String what, String name) {
    return decode(bytes, 0, bytes.length, what, name);
  }

  /**
   * The text of {@code length} UTF-8 bytes at {@code offset}.
   *
   * @param what what the bytes are, for the error, as for {@link #encode(String, String, String)}
   * @param name the field they belong to; null for none
   * @throws IllegalArgumentException if the bytes are not well-formed UTF-8, naming the first bad
   *     byte and its offset (counted from {@code offset})
   */
  public static String decode(byte[] bytes, int offset, int length, String what, String name) {
    String fast = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (fast.indexOf('\uFFFD') < 0) {
      return fast; // malformed input always decodes to U+FFFD, so there was none
    }
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
    CharBuffer out = CharBuffer.allocate(length);
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      r = decoder.flush(out);
    }
    if (r.isError()) {
      int at = in.position();
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < r.length(); i++) {
        b.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%02X",
            bytes[at + i] & 0xFF));
      }
      throw new IllegalArgumentException(subject(what, name) + " is not valid UTF-8: malformed"
          + " byte" + (r.length() == 1 ? " " : "s ") + b + " at byte " + (at - offset) + "; "
          + ALLOWED_BYTES);
    }
    out.flip();
    return out.toString();
  }

  /**
   * {@code text} for an error message: lone surrogates and control characters written as {@code
   * \}{@code uXXXX}, and cut to its first 40 characters, so the message itself is valid text
   * (and short).
   */
  public static String printable(String text) {
    return printable(text, SHOWN);
  }

  /**
   * {@code text} for a message: lone surrogates and control characters written as {@code
   * \}{@code uXXXX}, cut to its first {@code maxChars} characters (then ending in {@code ...}).
   */
  public static String printable(String text, int maxChars) {
    StringBuilder b = new StringBuilder(Math.min(text.length(), maxChars) + 8);
    int n = Math.min(text.length(), maxChars);
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1));
      if (paired) {
        b.append(c).append(text.charAt(++i));
      } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
        b.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
      } else {
        b.append(c);
      }
    }
    if (text.length() > n) {
      b.append("...");
    }
    return b.toString();
  }

  private static String subject(String what, String name) {
    return name == null ? what : what + " '" + printable(name) + "'";
  }

  private static String codeUnit(char c) {
    return String.format(Locale.ROOT, "U+%04X", (int) c);
  }

  private static boolean hasSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isSurrogate(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
