package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.component.Varint;

class RecordCodecTest {
  /**
   * The record format written the plain way (docs/format.md): the field count, then for each
   * field in name order the name's and the value's UTF-8 length and bytes.
   */
  private static byte[] reference(Map<String, String> fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] len = new byte[5];
    out.write(len, 0, Varint.put(len, 0, fields.size()));
    for (Map.Entry<String, String> e : new TreeMap<>(fields).entrySet()) {
      for (String s : new String[] {e.getKey(), e.getValue()}) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(len, 0, Varint.put(len, 0, b.length));
        out.write(b, 0, b.length);
      }
    }
    return out.toByteArray();
  }

  /** A string of {@code length} code points from ASCII, 2-, 3- and 4-byte UTF-8 ranges. */
  private static String randomText(SplittableRandom r, int length) {
    StringBuilder b = new StringBuilder();
    int mix = r.nextInt(4); // 0: ASCII only, else some share of wider code points
    for (int i = 0; i < length; i++) {
      int kind = mix == 0 ? 0 : r.nextInt(4);
      switch (kind) {
        case 0 -> b.append((char) r.nextInt(0x80));
        case 1 -> b.append((char) r.nextInt(0x80, 0x800));
        case 2 -> b.append((char) (r.nextBoolean() ? r.nextInt(0x800, 0xD800)
            : r.nextInt(0xE000, 0x10000)));
        default -> b.appendCodePoint(r.nextInt(0x10000, 0x110000));
      }
    }
    return b.toString();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void encodesExactlyAsTheFormatSaysForAnyMapAndText(long seed) {
    System.out.println("RecordCodecTest seed " + seed);
    SplittableRandom r = new SplittableRandom(seed);
    for (int round = 0; round < 300; round++) {
      int n = r.nextInt(round % 50 == 0 ? 200 : 12); // sometimes a count needing a 2-byte varint
      Map<String, String> fields = switch (r.nextInt(5)) {
        case 0 -> new HashMap<>();
        case 1 -> new LinkedHashMap<>();
        case 2 -> new TreeMap<>();
        case 3 -> new TreeMap<>(Collections.reverseOrder()); // sorted, but not by name
        default -> new ConcurrentHashMap<>();
      };
      for (int i = 0; i < n; i++) {
        // lengths around the 1-, 2- and 3-byte varint boundaries (127/128, 16383/16384)
        int valueLength = switch (r.nextInt(4)) {
          case 0 -> r.nextInt(4);
          case 1 -> r.nextInt(120, 136);
          case 2 -> r.nextInt(1000);
          default -> r.nextInt(16370, 16400);
        };
        fields.put(randomText(r, r.nextInt(1, 20)), randomText(r, valueLength));
      }
      byte[] encoded = RecordCodec.encode(fields);
      assertThat(encoded).as("seed %d round %d", seed, round).isEqualTo(reference(fields));
      assertThat(RecordCodec.decode(encoded)).isEqualTo(fields);
    }
  }

  @Test
  void encodingAllocatesLittleMoreThanTheRecordItself() {
    // The two-phase runner's record shape: 10 fields of 100 letters or 12 digits, insertion order.
    SplittableRandom r = new SplittableRandom(42);
    Map<String, String> fields = new LinkedHashMap<>();
    for (int i = 0; i < 10; i++) {
      StringBuilder value = new StringBuilder();
      for (int j = 0; j < 100; j++) {
        value.append((char) ('a' + r.nextInt(26)));
      }
      fields.put("field" + i, value.toString());
    }
    int recordBytes = RecordCodec.encode(fields).length;
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    int rounds = 2000;
    long checksum = 0;
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < rounds; i++) {
      checksum += RecordCodec.encode(fields)[i % recordBytes];
    }
    long perRecord = (threads.getThreadAllocatedBytes(id) - before) / rounds;
    assertThat(checksum).isNotZero();
    // The result array plus a few small arrays (entries, lengths); the old encoder took 6.7x.
    assertThat(perRecord).as("bytes allocated per %d-byte record", recordBytes)
        .isLessThan(recordBytes * 3L / 2);
  }

  @Test
  void aSortedMapInAnotherOrderIsStillWrittenInNameOrder() {
    Map<String, String> reversed = new TreeMap<>(Collections.reverseOrder());
    reversed.put("a", "1");
    reversed.put("b", "2");
    assertThat(RecordCodec.encode(reversed)).containsExactly(2, 1, 'a', 1, '1', 1, 'b', 1, '2');
  }

  @Test
  void aLoneSurrogateIsRefusedNamingTheField() {
    Map<String, String> badValue = new LinkedHashMap<>();
    badValue.put("ok", "fine");
    badValue.put("f1", "x\ud800y");
    assertThatThrownBy(() -> RecordCodec.encode(badValue))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("value of field 'f1' is not valid Unicode text: lone surrogate"
            + " U+D800 at index 1;");
    assertThatThrownBy(() -> RecordCodec.encode(Map.of("f\udc00", "v")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("field name 'f\\uDC00' is not valid Unicode text: lone surrogate"
            + " U+DC00 at index 1;");
  }
  @Test
  void fieldsRoundTripByteForByte() {
    Map<String, String> f = Map.of("e\u0301", "\ud83d\ude00\u0000", "\ufffd", "", "a", "?");
    assertThat(RecordCodec.decode(RecordCodec.encode(f))).isEqualTo(f);
  }

  @Test
  void storedBytesThatAreNotUtf8FailToDecodeNamingTheField() {
    byte[] r = RecordCodec.encode(Map.of("name", "v\u00e9"));
    r[r.length - 1] = (byte) 0xFF; // the second byte of e-acute
    assertThatThrownBy(() -> RecordCodec.decode(r)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("record value of field 'name' is not valid UTF-8: malformed byte"
            + " 0xC3 at byte 1;");
    byte[] n = RecordCodec.encode(Map.of("n\u00e9", "v"));
    n[3] = (byte) 0x80; // a stray continuation byte instead of the first byte of e-acute
    assertThatThrownBy(() -> RecordCodec.decode(n))
        .hasMessageStartingWith("record field name is not valid UTF-8: malformed byte 0x80 at"
            + " byte 1;");
  }
}
