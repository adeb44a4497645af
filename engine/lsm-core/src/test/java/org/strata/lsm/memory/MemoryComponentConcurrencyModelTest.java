package org.strata.lsm.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.component.EntryCursor;

/**
 * The memory component under concurrent writers and readers against a {@link
 * ConcurrentSkipListMap} model. Writers put and delete random keys (a few hot ones every writer
 * fights over, many cold ones, some several KiB long, empty values, anti-matter) with sequence
 * numbers from one shared counter, so writes of a key reach the component out of sequence order.
 * Each writer reads its write back at once (it, or a newer one, must be there). Readers meanwhile
 * check that every value they see was written for its key (a value carries its
 * key's checksum, its sequence number and filler derived from both, so a torn or foreign value
 * shows), that the versions a reader gets of a key never go back, and that cursors are strictly
 * ordered, inside their bounds and free of duplicates. After the writers finish the component
 * must equal the model exactly: the newest write of each key, the distinct key count and the user
 * bytes.
 */
class MemoryComponentConcurrencyModelTest {
  private static final int WRITERS = 3;
  private static final int READERS = 2;
  private static final int OPS_PER_WRITER = 20_000;
  private static final int HOT_KEYS = 6;
  private static final int COLD_KEYS = 3_000;
  /** Value header: sequence number (8) and the key's checksum (4). */
  private static final int HEADER = 12;

  /** The newest write of a key in the model. */
  private record Write(long lsn, byte[] value) {}

  /** How writers choose keys. */
  enum Workload {
    /** A third of the writes to a few hot keys, the rest spread over all keys. */
    SPREAD,
    /**
     * The writers together walk the keys in ascending order, over and over: each links its node
     * right next to the others' newest, so link compare-and-sets fail and retry all the time, and
     * every write is its key's newest when made, so a lost write shows.
     */
    ASCENDING
  }

  @ParameterizedTest(name = "seed {0}, {1}")
  @CsvSource({"1, SPREAD", "42, SPREAD", "20240917, SPREAD", "24301, SPREAD", "7, ASCENDING",
      "99, ASCENDING", "5150, ASCENDING"})
  void concurrentWritersAndReadersMatchTheModel(long seed, Workload workload) throws Exception {
    System.out.println("MemoryComponentConcurrencyModelTest seed " + seed + ", " + workload);
    byte[][] keys = keys(new SplittableRandom(seed));
    Integer[] ascending = new Integer[keys.length];
    for (int i = 0; i < keys.length; i++) {
      ascending[i] = i;
    }
    Arrays.sort(ascending, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
    AtomicInteger walk = new AtomicInteger();
    MemoryComponent mc = new MemoryComponent(1);
    ConcurrentSkipListMap<byte[],
        Write> model = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    AtomicLong lsns = new AtomicLong();
    AtomicLong userBytes = new AtomicLong();
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      SplittableRandom r = new SplittableRandom(seed * 31 + w);
      writers.add(new Thread(() -> run(failure, start, () -> {
        for (int i = 0; i < OPS_PER_WRITER; i++) {
          byte[] key = keys[workload == Workload.SPREAD ? pickKey(r)
              : ascending[walk.getAndIncrement() % keys.length]];
          long lsn = lsns.incrementAndGet();
          byte[] value = r.nextInt(100) < 15 ? null : value(r, key, lsn);
          mc.put(key, value, lsn);
          MemoryComponent.Versioned mine = mc.get(key);
          assertThat(mine).as("a completed write is visible").isNotNull();
          assertThat(mine.lsn()).as("a completed write or a newer one is read back")
              .isGreaterThanOrEqualTo(lsn);
          userBytes.addAndGet(key.length + (value == null ? 0 : value.length));
          model.merge(key, new Write(lsn, value), (a, b) -> a.lsn() > b.lsn() ? a : b);
        }
      }), "model-writer-" + w));
    }
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < READERS; t++) {
      SplittableRandom r = new SplittableRandom(seed * 77 + t);
      readers.add(new Thread(() -> run(failure, start, () -> {
        Map<Integer, Long> seen = new HashMap<>();
        int rounds = 0;
        while (writing.get() || rounds < 50) {
          rounds++;
          for (int i = 0; i < 50; i++) {
            int k = pickKey(r);
            MemoryComponent.Versioned v = mc.get(keys[k]);
            if (v != null) {
              checkValue(keys[k], v.value(), v.lsn());
              long before = seen.getOrDefault(k, 0L);
              assertThat(v.lsn()).as("versions of key %d must never go back", k)
                  .isGreaterThanOrEqualTo(before);
              seen.put(k, v.lsn());
            }
          }
          checkCursor(mc, keys, r);
        }
      }), "model-reader-" + t));
    }
    writers.forEach(Thread::start);
    readers.forEach(Thread::start);
    start.countDown();
    for (Thread w : writers) {
      w.join();
    }
    writing.set(false);
    for (Thread t : readers) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("seed " + seed + ": " + failure.get(), failure.get());
    }

    // the component now equals the model exactly
    Iterator<Map.Entry<byte[], Write>> expected = model.entrySet().iterator();
    try (EntryCursor c = mc.cursor(null, null)) {
      while (c.next()) {
        assertThat(expected.hasNext()).as("seed %d: cursor has more keys than the model", seed)
            .isTrue();
        Map.Entry<byte[], Write> e = expected.next();
        assertThat(c.key()).as("seed %d: key", seed).isEqualTo(e.getKey());
        assertThat(c.value()).as("seed %d: value of the newest write", seed)
            .isEqualTo(e.getValue().value());
      }
    }
    assertThat(expected.hasNext()).as("seed %d: cursor missed keys", seed).isFalse();
    for (byte[] key : keys) {
      Write w = model.get(key);
      MemoryComponent.Versioned v = mc.get(key);
      if (w == null) {
        assertThat(v).isNull();
      } else {
        assertThat(v.lsn()).as("seed %d: newest sequence number", seed).isEqualTo(w.lsn());
        assertThat(v.value()).isEqualTo(w.value());
      }
    }
    assertThat(mc.entryCount()).as("seed %d: distinct keys", seed).isEqualTo(model.size());
    assertThat(mc.liveBytes()).as("seed %d: live bytes kept by the inserts against a walk of the"
        + " newest versions", seed).isEqualTo(mc.liveBytesWalked()).isPositive();
    assertThat(mc.userBytes()).isEqualTo(userBytes.get());
    assertThat(mc.maxLsn()).isEqualTo(lsns.get());
    assertThat(mc.minLsn()).isEqualTo(1);
    assertThat(mc.sizeBytes()).as("every write's bytes plus at least a header and one link")
        .isGreaterThanOrEqualTo(userBytes.get() + 24L * WRITERS * OPS_PER_WRITER);
  }

  /** A random range (open bounds, empty ranges included): strictly ordered, bounded, valid. */
  private static void checkCursor(MemoryComponent mc, byte[][] keys, SplittableRandom r) {
    byte[] from = r.nextInt(4) == 0 ? null : keys[r.nextInt(keys.length)];
    byte[] to = r.nextInt(4) == 0 ? null : keys[r.nextInt(keys.length)];
    byte[] previous = null;
    try (EntryCursor c = mc.cursor(from, to)) {
      for (int n = 0; n < 300 && c.next(); n++) {
        byte[] key = c.key();
        if (previous != null) {
          assertThat(Arrays.compareUnsigned(previous, key))
              .as("cursor keys strictly ascending, no duplicates").isNegative();
        }
        if (from != null) {
          assertThat(Arrays.compareUnsigned(from, key)).as("key at or after"
              + " from").isLessThanOrEqualTo(0);
        }
        if (to != null) {
          assertThat(Arrays.compareUnsigned(key, to)).as("key at or before"
              + " to").isLessThanOrEqualTo(0);
        }
        checkValue(key, c.value(), -1);
        previous = key;
      }
    }
  }

  /** Fails unless {@code value} is one a writer could have written for {@code key}. */
  private static void checkValue(byte[] key, byte[] value, long lsn) {
    if (value == null) {
      return; // anti-matter
    }
    if (value.length == 0) {
      assertThat(emptyValuesAllowed(key)).as("empty value seen for a key never given one").isTrue();
      return;
    }
    assertThat(value.length).as("value length").isGreaterThanOrEqualTo(HEADER);
    ByteBuffer b = ByteBuffer.wrap(value);
    long written = b.getLong();
    assertThat(b.getInt()).as("value written for this key").isEqualTo(checksum(key));
    if (lsn >= 0) {
      assertThat(written).as("value of the returned sequence number").isEqualTo(lsn);
    }
    byte[] filler = filler(written, value.length - HEADER);
    assertThat(Arrays.equals(value, HEADER, value.length, filler, 0, filler.length))
        .as("value bytes intact").isTrue();
  }

  private static byte[] value(SplittableRandom r, byte[] key, long lsn) {
    if (emptyValuesAllowed(key) && r.nextInt(3) == 0) {
      return new byte[0];
    }
    int n = r.nextInt(50) == 0 ? 4000 + r.nextInt(60_000) : r.nextInt(200);
    ByteBuffer b = ByteBuffer.allocate(HEADER + n);
    b.putLong(lsn).putInt(checksum(key)).put(filler(lsn, n));
    return b.array();
  }

  private static byte[] filler(long lsn, int n) {
    byte[] f = new byte[n];
    new SplittableRandom(lsn).nextBytes(f);
    return f;
  }

  private static boolean emptyValuesAllowed(byte[] key) {
    return (checksum(key) & 7) == 0;
  }

  private static int checksum(byte[] key) {
    CRC32C c = new CRC32C();
    c.update(key);
    return (int) c.getValue();
  }

  private static int pickKey(SplittableRandom r) {
    return r.nextInt(3) == 0 ? r.nextInt(HOT_KEYS) : HOT_KEYS + r.nextInt(COLD_KEYS);
  }

  /** Hot keys first, then cold ones; some long, some prefixes of others, one empty. */
  private static byte[][] keys(SplittableRandom r) {
    byte[][] keys = new byte[HOT_KEYS + COLD_KEYS][];
    for (int i = 0; i < keys.length; i++) {
      byte[] base = ("key" + r.nextInt(1_000_000)).getBytes(StandardCharsets.UTF_8);
      if (i % 100 == 7) {
        byte[] longKey = Arrays.copyOf(base, 1000 + r.nextInt(5000));
        Arrays.fill(longKey, base.length, longKey.length, (byte) (0x80 + r.nextInt(0x80)));
        base = longKey;
      } else if (i % 50 == 3) {
        base = Arrays.copyOf(base, base.length - 1); // often a prefix of another key
      }
      keys[i] = base;
    }
    keys[HOT_KEYS + 1] = new byte[0];
    return keys;
  }

  private interface Body {
    void run() throws Exception;
  }

  private static void run(AtomicReference<Throwable> failure, CountDownLatch start, Body body) {
    try {
      start.await();
      body.run();
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }
}
