package org.strata.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8Test {
  @Test
  void aLoneSurrogateIsRefusedNamingWhatWhereAndWhatIsAllowed() {
    assertThatThrownBy(() -> Utf8.encode("\ud800", "key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("key is not valid Unicode text: lone surrogate U+D800 at index 0;")
        .hasMessageContaining("must be valid Unicode text");
    assertThatThrownBy(() -> Utf8.encode("ab\udc00", "field name", "ab\udc00"))
        .hasMessageStartingWith("field name 'ab\\uDC00' is not valid Unicode text: lone surrogate"
            + " U+DC00 at index 2;");
    assertThatThrownBy(() -> Utf8.encode("v\ud83d", "value of field", "field1"))
        .hasMessageStartingWith("value of field 'field1' is not valid Unicode text: lone"
            + " surrogate U+D83D at index 1;");
    // A pair in the wrong order is two lone surrogates; the first is reported.
    assertThatThrownBy(() -> Utf8.encode("\ude00\ud83d", "key"))
        .hasMessageContaining("lone surrogate U+DE00 at index 0");
    // A valid pair before the lone one does not hide it.
    assertThatThrownBy(() -> Utf8.check("\ud83d\ude00x\udbff", "key"))
        .hasMessageContaining("lone surrogate U+DBFF at index 3");
  }

  @Test
  void validTextIsEncodedByteForByte() {
    assertThat(Utf8.encode("\ud83d\ude00", "key")).containsExactly(0xF0, 0x9F, 0x98, 0x80);
    assertThat(Utf8.encode("\udbff\udfff", "key")).containsExactly(0xF4, 0x8F, 0xBF, 0xBF);
    assertThat(Utf8.encode("a\u0000b", "key")).containsExactly('a', 0, 'b');
    assertThat(Utf8.encode("e\u0301", "key")).containsExactly('e', 0xCC, 0x81);
    assertThat(Utf8.encode("\ufffd", "key")).containsExactly(0xEF, 0xBF, 0xBD);
    assertThat(Utf8.decode(new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD}, "key"))
        .isEqualTo("\ufffd"); // a real U+FFFD is text, not a decoding error
  }

  @ParameterizedTest
  @ValueSource(strings = {"FF", "61C3", "EDA080", "C0AF", "F4908080", "80", "E282", "F8888080"})
  void malformedBytesAreRefusedNamingTheFirstBadByteAndItsOffset(String hex) {
    byte[] bad = hex(hex);
    byte[] padded = new byte[bad.length + 3];
    padded[0] = 'x';
    padded[1] = 'y';
    System.arraycopy(bad, 0, padded, 2, bad.length);
    padded[padded.length - 1] = 'z';
    assertThatThrownBy(() -> Utf8.decode(padded, 1, padded.length - 1, "line", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("line is not valid UTF-8: malformed byte")
        .hasMessageMatching("(?s).* at byte " + (hex.equals("61C3") ? 2 : 1) + ";.*")
        .hasMessageContaining("well-formed UTF-8");
  }

  @Test
  void printableEscapesLoneSurrogatesAndControlsAndCutsLongText() {
    assertThat(Utf8.printable("a\ud800\u0000\ud83d\ude00"))
        .isEqualTo("a\\uD800\\u0000\ud83d\ude00");
    assertThat(Utf8.printable("x".repeat(50))).isEqualTo("x".repeat(40) + "...");
    assertThat(Utf8.printable("xy\ud800", 2)).isEqualTo("xy...");
  }

  /**
   * Random text of any code points, some lone surrogates mixed in: encoding succeeds exactly when
   * every surrogate is paired, and then decodes to the same code points; random bytes, biased
   * towards UTF-8 lead and continuation bytes, decode exactly when a reference validator written
   * from RFC 3629 accepts them, and then encode back to the same bytes.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void agreesWithAReferenceValidatorOnRandomTextAndBytes(long seed) {
    System.out.println("Utf8Test seed " + seed);
    Random rnd = new Random(seed);
    int rejectedText = 0;
    int rejectedBytes = 0;
    for (int round = 0; round < 2000; round++) {
      StringBuilder b = new StringBuilder();
      int n = rnd.nextInt(12);
      for (int i = 0; i < n; i++) {
        int pick = rnd.nextInt(10);
        if (pick == 0 && round % 3 == 0) {
          b.append((char) (0xD800 + rnd.nextInt(0x800))); // a lone surrogate (or a lucky pair)
        } else if (pick < 3) {
          b.appendCodePoint(0x10000 + rnd.nextInt(0x100000));
        } else if (pick < 5) {
          b.appendCodePoint(rnd.nextInt(0x80));
        } else {
          int cp = rnd.nextInt(0x10000);
          b.appendCodePoint(Character.isSurrogate((char) cp) ? 0xFFFD : cp);
        }
      }
      String s = b.toString();
      int lone = firstLoneSurrogate(s);
      if (lone >= 0) {
        rejectedText++;
        assertThatThrownBy(() -> Utf8.encode(s, "key")).as("seed %d text %s", seed, s)
            .hasMessageContaining("at index " + lone + ";");
      } else {
        byte[] e = Utf8.encode(s, "key");
        assertThat(e).as("seed %d", seed).isEqualTo(referenceEncode(s));
        assertThat(Utf8.decode(e, "key")).isEqualTo(s);
      }
      byte[] raw = randomBytes(rnd);
      if (referenceValid(raw)) {
        assertThat(Utf8.encode(Utf8.decode(raw, "key"), "key")).as("seed %d", seed)
            .isEqualTo(raw);
      } else {
        rejectedBytes++;
        assertThatThrownBy(() -> Utf8.decode(raw, "key")).as("seed %d bytes %s", seed,
            java.util.Arrays.toString(raw)).isInstanceOf(IllegalArgumentException.class);
      }
    }
    assertThat(rejectedText).as("the rounds include lone surrogates").isPositive();
    assertThat(rejectedBytes).as("the rounds include malformed bytes").isPositive();
  }

  private static int firstLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  private static byte[] referenceEncode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.codePoints().forEach(cp -> {
      if (cp < 0x80) {
        out.write(cp);
      } else if (cp < 0x800) {
        out.write(0xC0 | cp >> 6);
        out.write(0x80 | cp & 0x3F);
      } else if (cp < 0x10000) {
        out.write(0xE0 | cp >> 12);
        out.write(0x80 | cp >> 6 & 0x3F);
        out.write(0x80 | cp & 0x3F);
      } else {
        out.write(0xF0 | cp >> 18);
        out.write(0x80 | cp >> 12 & 0x3F);
        out.write(0x80 | cp >> 6 & 0x3F);
        out.write(0x80 | cp & 0x3F);
      }
    });
    return out.toByteArray();
  }

  /** RFC 3629, section 4: the byte sequences of UTF-8. */
  private static boolean referenceValid(byte[] b) {
    int i = 0;
    while (i < b.length) {
      int c = b[i] & 0xFF;
      int n;
      int lo2 = 0x80;
      int hi2 = 0xBF;
      if (c < 0x80) {
        i++;
        continue;
      } else if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
      } else if (c == 0xE0) {
        n = 2;
        lo2 = 0xA0;
      } else if (c >= 0xE1 && c <= 0xEC || c == 0xEE || c == 0xEF) {
        n = 2;
      } else if (c == 0xED) {
        n = 2;
        hi2 = 0x9F;
      } else if (c == 0xF0) {
        n = 3;
        lo2 = 0x90;
      } else if (c >= 0xF1 && c <= 0xF3) {
        n = 3;
      } else if (c == 0xF4) {
        n = 3;
        hi2 = 0x8F;
      } else {
        return false;
      }
      if (i + n >= b.length) {
        return false; // cut short
      }
      int second = b[i + 1] & 0xFF;
      if (second < lo2 || second > hi2) {
        return false;
      }
      for (int k = 2; k <= n; k++) {
        int x = b[i + k] & 0xFF;
        if (x < 0x80 || x > 0xBF) {
          return false;
        }
      }
      i += n + 1;
    }
    return true;
  }

  private static byte[] randomBytes(Random rnd) {
    byte[] b = new byte[rnd.nextInt(10)];
    for (int i = 0; i < b.length; i++) {
      int pick = rnd.nextInt(6);
      b[i] = (byte) switch (pick) {
        case 0 -> rnd.nextInt(0x80);
        case 1, 2 -> 0x80 + rnd.nextInt(0x40); // continuation
        case 3 -> 0xC0 + rnd.nextInt(0x20);
        case 4 -> 0xE0 + rnd.nextInt(0x10);
        default -> 0xF0 + rnd.nextInt(0x10);
      };
    }
    return b;
  }

  private static byte[] hex(String h) {
    byte[] b = new byte[h.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }
}
