package org.strata.lsm.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.strata.lsm.Limits;
import org.strata.lsm.component.EntryCursor;

/** Boundaries of the memory component: key and value sizes, cursor bounds, versions, bytes. */
class MemoryComponentTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> scan(MemoryComponent mc, String from, String to) {
    List<String> out = new ArrayList<>();
    try (EntryCursor c = mc.cursor(from == null ? null : b(from), to == null ? null : b(to))) {
      while (c.next()) {
        byte[] v = c.value();
        out.add(new String(c.key(), StandardCharsets.UTF_8) + "="
            + (v == null ? "-" : new String(v, StandardCharsets.UTF_8)));
      }
    }
    return out;
  }

  @Test
  void emptyComponent() {
    MemoryComponent mc = new MemoryComponent(3);
    assertThat(mc.isEmpty()).isTrue();
    assertThat(mc.entryCount()).isZero();
    assertThat(mc.get(b("a"))).isNull();
    assertThat(scan(mc, null, null)).isEmpty();
    assertThat(mc.minLsn()).isEqualTo(Long.MAX_VALUE);
    assertThat(mc.userBytes()).isZero();
  }

  @Test
  void olderWriteLosesWhateverItsArrivalOrder() {
    MemoryComponent mc = new MemoryComponent(1);
    mc.put(b("k"), b("new"), 10);
    mc.put(b("k"), b("old"), 5);
    mc.put(b("j"), b("j1"), 7);
    assertThat(mc.get(b("k")).value()).isEqualTo(b("new"));
    assertThat(mc.get(b("k")).lsn()).isEqualTo(10);
    assertThat(scan(mc, null, null)).containsExactly("j=j1", "k=new");
    mc.put(b("k"), b("newest"), 11);
    assertThat(mc.get(b("k")).value()).isEqualTo(b("newest"));
    assertThat(scan(mc, null, null)).containsExactly("j=j1", "k=newest");
    assertThat(mc.entryCount()).as("distinct keys").isEqualTo(2);
    assertThat(mc.userBytes()).isEqualTo(4 + 4 + 3 + 7);
    assertThat(mc.minLsn()).isEqualTo(5);
    assertThat(mc.maxLsn()).isEqualTo(11);
  }

  @Test
  void aRepeatedSequenceNumberKeepsTheFirstWrite() {
    MemoryComponent mc = new MemoryComponent(1);
    mc.put(b("k"), b("first"), 4);
    mc.put(b("k"), b("again"), 4);
    assertThat(mc.get(b("k")).value()).isEqualTo(b("first"));
    assertThat(mc.entryCount()).isEqualTo(1);
  }

  @Test
  void antiMatterIsTheNewestVersion() {
    MemoryComponent mc = new MemoryComponent(1);
    mc.put(b("k"), b("v"), 1);
    mc.put(b("k"), null, 2);
    MemoryComponent.Versioned v = mc.get(b("k"));
    assertThat(v.value()).isNull();
    assertThat(v.lsn()).isEqualTo(2);
    assertThat(scan(mc, null, null)).containsExactly("k=-");
    mc.put(b("k"), b("back"), 3);
    assertThat(scan(mc, null, null)).containsExactly("k=back");
    assertThat(mc.entryCount()).isEqualTo(1);
  }

  @Test
  void emptyKeyAndEmptyValue() {
    MemoryComponent mc = new MemoryComponent(1);
    mc.put(b("a"), new byte[0], 1);
    mc.put(new byte[0], b("e"), 2);
    assertThat(mc.get(new byte[0]).value()).isEqualTo(b("e"));
    assertThat(mc.get(b("a")).value()).isEmpty();
    assertThat(scan(mc, null, null)).containsExactly("=e", "a=");
    assertThat(scan(mc, "", "")).containsExactly("=e");
    assertThat(mc.entryCount()).isEqualTo(2);
  }

  @Test
  void cursorBounds() {
    MemoryComponent mc = new MemoryComponent(1);
    long lsn = 0;
    for (String k : List.of("b", "d", "f", "h")) {
      mc.put(b(k), b(k + "1"), ++lsn);
      mc.put(b(k), b(k + "2"), ++lsn);
    }
    assertThat(scan(mc, null, null)).containsExactly("b=b2", "d=d2", "f=f2", "h=h2");
    assertThat(scan(mc, "d", "f")).containsExactly("d=d2", "f=f2");
    assertThat(scan(mc, "c", "g")).containsExactly("d=d2", "f=f2");
    assertThat(scan(mc, "d", null)).containsExactly("d=d2", "f=f2", "h=h2");
    assertThat(scan(mc, null, "d")).containsExactly("b=b2", "d=d2");
    assertThat(scan(mc, "d", "d")).as("equal bounds on a key").containsExactly("d=d2");
    assertThat(scan(mc, "e", "e")).as("equal bounds between keys").isEmpty();
    assertThat(scan(mc, "f", "d")).as("from after to").isEmpty();
    assertThat(scan(mc, "i", null)).as("from after the last key").isEmpty();
    assertThat(scan(mc, null, "a")).as("to before the first key").isEmpty();
    assertThat(scan(mc, "d\0", "f")).as("from just after a key").containsExactly("f=f2");
  }

  @Test
  void cursorAfterItsEndStaysAtTheEnd() {
    MemoryComponent mc = new MemoryComponent(1);
    mc.put(b("a"), b("1"), 1);
    try (EntryCursor c = mc.cursor(null, null)) {
      assertThat(c.next()).isTrue();
      assertThat(c.next()).isFalse();
      mc.put(b("z"), b("2"), 2);
      assertThat(c.next()).isFalse();
    }
  }

  @Test
  void keysCompareAsUnsignedBytes() {
    MemoryComponent mc = new MemoryComponent(1);
    mc.put(new byte[] {(byte) 0x80}, b("high"), 1);
    mc.put(new byte[] {0x7f}, b("low"), 2);
    mc.put(new byte[] {0x7f, 0}, b("longer"), 3);
    try (EntryCursor c = mc.cursor(null, null)) {
      List<byte[]> keys = new ArrayList<>();
      while (c.next()) {
        keys.add(c.key());
      }
      assertThat(keys).containsExactly(new byte[] {0x7f}, new byte[] {0x7f, 0},
          new byte[] {(byte) 0x80});
    }
  }

  /**
   * Keys around the 8-byte prefix the skip list compares first: shorter than 8, exactly 8, sharing
   * the first 8 bytes and differing after, differing only in byte 7 or byte 0, with bytes above
   * 0x7f in and after the prefix. Every order, lookup and bounded scan agrees with unsigned byte
   * order.
   */
  @Test
  void keysOrderByUnsignedBytesAroundTheFirstEight() {
    byte[][] keys = {
        {}, {0}, {1, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8, 0},
        {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6, 7, 8, (byte) 0xff},
        {1, 2, 3, 4, 5, 6, 7, (byte) 0x80}, {1, 2, 3, 4, 5, 6, 7, (byte) 0x80, 1},
        {1, 2, 3, 4, 5, 6, 7, 9}, {1, 2, 3, 4, 5, 6, 7}, {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0},
        {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff, (byte) 0xff, 0},
        {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff, (byte) 0xff},
    };
    java.util.Random random = new java.util.Random(7);
    List<byte[]> shuffled = new ArrayList<>(Arrays.asList(keys));
    java.util.Collections.shuffle(shuffled, random);
    MemoryComponent mc = new MemoryComponent(1);
    long lsn = 1;
    for (byte[] k : shuffled) {
      mc.put(k, k, lsn++);
    }
    List<byte[]> sorted = new ArrayList<>(Arrays.asList(keys));
    sorted.sort(Arrays::compareUnsigned);
    try (EntryCursor c = mc.cursor(null, null)) {
      List<byte[]> seen = new ArrayList<>();
      while (c.next()) {
        seen.add(c.key());
      }
      assertThat(seen).containsExactlyElementsOf(sorted);
    }
    for (int i = 0; i < sorted.size(); i++) {
      byte[] k = sorted.get(i);
      assertThat(mc.get(k).value()).as("get %s", Arrays.toString(k)).isEqualTo(k);
      byte[] missing = Arrays.copyOf(k, k.length + 1);
      missing[k.length] = 0x55;
      assertThat(mc.get(missing)).as("get %s", Arrays.toString(missing)).isNull();
      try (EntryCursor c = mc.cursor(k, null)) {
        assertThat(c.next()).isTrue();
        assertThat(c.key()).as("first key from %s", Arrays.toString(k)).isEqualTo(k);
      }
    }
  }

  @Test
  void theComponentKeepsItsOwnCopyOfKeysAndValues() {
    MemoryComponent mc = new MemoryComponent(1);
    byte[] key = b("key");
    byte[] value = b("value");
    mc.put(key, value, 1);
    key[0] = 'X';
    value[0] = 'X';
    assertThat(mc.get(b("key")).value()).isEqualTo(b("value"));
    assertThat(mc.get(key)).isNull();
  }

  @Test
  void largestKeyAndValue() {
    MemoryComponent mc = new MemoryComponent(1);
    byte[] key = new byte[Limits.MAX_KEY_BYTES];
    Arrays.fill(key, (byte) 0xff);
    byte[] value = new byte[Limits.MAX_VALUE_BYTES];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (i * 31);
    }
    mc.put(b("a"), b("small"), 1);
    long before = mc.sizeBytes();
    mc.put(key, value, 2);
    mc.put(b("b"), b("small"), 3);
    assertThat(mc.get(key).value()).isEqualTo(value);
    assertThat(mc.get(b("b")).value()).isEqualTo(b("small"));
    long grew = mc.sizeBytes() - before;
    long user = (long) key.length + value.length;
    assertThat(grew).as("the largest entry's bytes, with its header and links")
        .isBetween(user + 24, user + 24 + 8L * ArenaSkipList.MAX_HEIGHT + 200);
    try (EntryCursor c = mc.cursor(b("b"), null)) {
      assertThat(c.next()).isTrue();
      assertThat(c.key()).isEqualTo(b("b"));
      assertThat(c.next()).isTrue();
      assertThat(c.key()).isEqualTo(key);
      assertThat(c.value()).isEqualTo(value);
      assertThat(c.next()).isFalse();
    }
  }

  @Test
  void entriesLargerThanAChunkAmongSmallOnes() {
    MemoryComponent mc = new MemoryComponent(1);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      int size = i % 5 == 0 ? Arena.MAX_CHUNK + 1000 * i : 10 * i;
      byte[] v = new byte[size];
      Arrays.fill(v, (byte) i);
      values.add(v);
      mc.put(b(String.format("k%03d", i)), v, i + 1);
    }
    for (int i = 0; i < 40; i++) {
      assertThat(mc.get(b(String.format("k%03d", i))).value()).isEqualTo(values.get(i));
    }
    int i = 0;
    try (EntryCursor c = mc.cursor(null, null)) {
      while (c.next()) {
        assertThat(c.value()).isEqualTo(values.get(i++));
      }
    }
    assertThat(i).isEqualTo(40);
    assertThat(mc.entryCount()).isEqualTo(40);
  }

  @Test
  void sizeBytesCountsTheBytesHeldNotAGuess() {
    MemoryComponent mc = new MemoryComponent(1);
    int n = 50_000;
    byte[] value = new byte[100];
    for (int i = 0; i < n; i++) {
      mc.put(b(String.format("user%016d", i)), value, i + 1);
    }
    long user = mc.userBytes();
    assertThat(user).isEqualTo(n * 120L);
    // at least a 16-byte header and one 8-byte link per entry; at most the header, the links of
    // a node's levels (4/3 on average), alignment, and the unused tails of the chunks
    assertThat(mc.sizeBytes()).isGreaterThanOrEqualTo(user + 24L * n)
        .isLessThanOrEqualTo(user + 48L * n);
    // an overwrite holds its bytes too: the budget sees them
    long size = mc.sizeBytes();
    mc.put(b(String.format("user%016d", 0)), value, n + 1);
    assertThat(mc.sizeBytes()).isGreaterThanOrEqualTo(size + 120 + 24);
  }
}
