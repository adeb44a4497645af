package org.strata.lsm.memory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.strata.lsm.component.EntryCursor;

/**
 * An in-memory component: a concurrent sorted set of writes (key, value or anti-matter, log
 * sequence number) whose newest version per key is what readers see, with byte-budget accounting.
 * Concurrent writers may insert in any order: each entry carries the log sequence number of its
 * write and a newer number always wins, so the component reads as the state the log replays to.
 * Once sealed for flushing it receives no more writes.
 *
 * <p>The entries live in an {@link ArenaSkipList}: keys and values are copied into a few large
 * arena chunks, each write once (older versions of a key stay until the component is dropped), so
 * {@link #sizeBytes()} is the bytes the component really holds and a flush is triggered by them.
 */
public final class MemoryComponent {
  private final long id;
  private final ArenaSkipList entries = new ArenaSkipList();
  private final LongAdder userBytes = new LongAdder();
  private final LongAdder distinctKeys = new LongAdder();
  private final AtomicLong maxLsn = new AtomicLong();
  private final AtomicLong minLsn = new AtomicLong(Long.MAX_VALUE);
  private volatile boolean sealed;
  /**
   * The highest sequence number of the entries carried over from the previous component
   * (TRIAD-MEM), 0 if none. They are inserted at the seal, before any user write reaches this
   * component, and re-logged there, so their sequence numbers are below every user write's here:
   * a key's oldest version here was carried in exactly when its sequence number is at most this.
   */
  private final AtomicLong carriedMaxLsn = new AtomicLong();
  private final LongAdder carriedBytes = new LongAdder();
  /** Keys carried on to the next component at the seal; a flush skips them (TRIAD-MEM). */
  private volatile Set<ByteBuffer> carriedOut = Set.of();

  /** A value (null for anti-matter) with the sequence number of the write that produced it. */
  public record Versioned(byte[] value, long lsn) {}

  /** @param id a number unique within the store, increasing with creation */
  public MemoryComponent(long id) {
    this.id = id;
  }

  public long id() {
    return id;
  }

  /**
   * Writes {@code value} for {@code key} at sequence number {@code lsn}; {@code value} null writes
   * anti-matter. The arrays are copied. A write with a lower sequence number than one already
   * applied to the key is kept but never read (the newer one wins).
   */
  public void put(byte[] key, byte[] value, long lsn) {
    if (entries.insert(key, value, lsn)) {
      distinctKeys.increment();
    }
    userBytes.add(key.length + (value == null ? 0 : value.length));
    long max = maxLsn.get();
    while (lsn > max && !maxLsn.compareAndSet(max, lsn)) {
      max = maxLsn.get();
    }
    long min = minLsn.get();
    while (lsn < min && !minLsn.compareAndSet(min, lsn)) {
      min = minLsn.get();
    }
  }

  /**
   * Inserts an entry carried over from the previous memory component at a seal (TRIAD-MEM): like
   * {@link #put} but not a user write, so it adds nothing to {@link #userBytes()} and the key's
   * update counter starts at 0 ({@link #updates}). Entries are carried in at the seal, before any
   * user write reaches this component, with increasing sequence numbers.
   *
   * @throws IllegalStateException after a user write, or with a sequence number not above the
   *     last carried one
   */
  public void carry(byte[] key, byte[] value, long lsn) {
    if (maxLsn.get() > carriedMaxLsn.get() || lsn <= carriedMaxLsn.get()) {
      throw new IllegalStateException("entries are carried in before any user write, in"
          + " sequence-number order (carrying " + lsn + " after " + maxLsn.get() + ")");
    }
    put(key, value, lsn);
    long bytes = key.length + (value == null ? 0 : value.length);
    userBytes.add(-bytes);
    carriedBytes.add(bytes);
    carriedMaxLsn.set(lsn); // above every earlier one (checked above)
  }

  /**
   * The update counter of {@code key} (TRIAD-MEM, docs/papers/triad.md#triad-mem): the writes to it
   * this component holds, not counting the entry carried over from the previous component, so a new
   * key starts at 1, each update adds 1 and a carried key starts at 0. 0 for an absent key.
   */
  public int updates(byte[] key) {
    long node = entries.seek(key);
    if (node == 0 || entries.compareKey(node, key) != 0) {
      return 0;
    }
    return updates(node);
  }

  /** The update counter of the key whose newest version is {@code node}. */
  private int updates(long node) {
    int versions = 1;
    long oldest = node;
    for (long x = entries.next(node); x != 0 && entries.sameKey(x, node); x = entries.next(x)) {
      versions++;
      oldest = x;
    }
    long carried = carriedMaxLsn.get();
    return carried != 0 && entries.lsn(oldest) <= carried ? versions - 1 : versions;
  }

  /** Key plus value bytes of the entries carried in from the previous component. */
  public long carriedBytes() {
    return carriedBytes.sum();
  }

  /**
   * The update counter ({@link #updates}) of every key, in key order. Call only on a sealed
   * component (it must not change meanwhile).
   */
  public int[] updateCounts() {
    int[] out = new int[entryCount()];
    int i = 0;
    for (long n = entries.first(); n != 0 && i < out.length; n = entries.nextKey(n)) {
      out[i++] = updates(n);
    }
    return i == out.length ? out : Arrays.copyOf(out, i);
  }

  /**
   * Arena bytes the newest version of each key occupies: what the component would hold if it
   * kept one version per key (the paper's memtable size, where this component's {@link
   * #sizeBytes()} also counts overwritten versions, as the paper's commit log does). Kept by
   * the inserts, so it costs nothing to read; it may lag inserts still running.
   */
  public long liveBytes() {
    return entries.liveBytes();
  }

  /** {@link #liveBytes()} found by walking every key's newest version (to check the sum). */
  long liveBytesWalked() {
    long b = 0;
    for (long n = entries.first(); n != 0; n = entries.nextKey(n)) {
      b += entries.nodeBytes(n);
    }
    return b;
  }

  /** A key's newest version: value (null for anti-matter) and sequence number. */
  public record Entry(byte[] key, byte[] value, long lsn) {}

  /**
   * The newest version of the keys whose index (in key order, as in {@link #updateCounts()}) is
   * set in {@code picked}, in key order. Call only on a sealed component.
   */
  public List<Entry> newest(boolean[] picked) {
    List<Entry> out = new ArrayList<>();
    int i = 0;
    for (long n = entries.first(); n != 0 && i < picked.length; n = entries.nextKey(n), i++) {
      if (picked[i]) {
        out.add(new Entry(entries.key(n), entries.value(n), entries.lsn(n)));
      }
    }
    return out;
  }

  /**
   * Records that {@code keys} were carried on to the next memory component at this component's
   * seal (their newest versions re-logged there): its flush writes only the other keys.
   */
  public void carriedOut(List<byte[]> keys) {
    Set<ByteBuffer> s = new HashSet<>(keys.size() * 2);
    for (byte[] k : keys) {
      s.add(ByteBuffer.wrap(k));
    }
    carriedOut = s;
  }

  /** True if {@code key} was carried on to the next memory component ({@link #carriedOut}). */
  public boolean isCarriedOut(byte[] key) {
    Set<ByteBuffer> s = carriedOut;
    return !s.isEmpty() && s.contains(ByteBuffer.wrap(key));
  }

  /** Keys a flush of this component writes: those not carried on to the next component. */
  public int coldCount() {
    return entryCount() - carriedOut.size();
  }

  /** The newest entry for {@code key}, or null. */
  public Versioned get(byte[] key) {
    long node = entries.seek(key);
    if (node == 0 || entries.compareKey(node, key) != 0) {
      return null;
    }
    return new Versioned(entries.value(node), entries.lsn(node));
  }

  /**
   * Bytes charged to the memory budget: the arena bytes the entries occupy (keys, values, links,
   * headers and alignment of every write applied, overwritten ones included, plus the unused tails
   * of filled chunks).
   */
  public long sizeBytes() {
    return entries.sizeBytes();
  }

  /** Key plus value bytes of every write applied (overwritten ones included). */
  public long userBytes() {
    return userBytes.sum();
  }

  /** Highest sequence number applied. */
  public long maxLsn() {
    return maxLsn.get();
  }

  /** Lowest sequence number applied, or {@link Long#MAX_VALUE} while empty. */
  public long minLsn() {
    return minLsn.get();
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Distinct keys held. */
  public int entryCount() {
    return (int) distinctKeys.sum();
  }

  /** Marks the component as flushing; the store sends no more writes to it. */
  public void seal() {
    sealed = true;
  }

  public boolean isSealed() {
    return sealed;
  }

  /**
   * A cursor over the newest version of each key in [from, to] (null bounds are open), weakly
   * consistent while writers run: it sees every write completed before it starts, may see later
   * ones, and never yields a key twice or out of order.
   */
  public EntryCursor cursor(byte[] from, byte[] to) {
    boolean empty = from != null && to != null && Arrays.compareUnsigned(from, to) > 0;
    return new EntryCursor() {
      private long node;
      private boolean started = empty;
      private boolean done = empty;
      private byte[] key;
      private byte[] value;
      private boolean valueRead;

      @Override
      public boolean next() {
        if (done) {
          return false;
        }
        if (!started) {
          started = true;
          node = from == null ? entries.first() : entries.seek(from);
        } else {
          node = entries.nextKey(node);
        }
        key = null;
        value = null;
        valueRead = false;
        if (node == 0 || (to != null && entries.compareKey(node, to) > 0)) {
          done = true;
          return false;
        }
        return true;
      }

      @Override
      public byte[] key() {
        if (key == null) {
          key = entries.key(node);
        }
        return key;
      }

      @Override
      public byte[] value() {
        if (!valueRead) {
          value = entries.value(node);
          valueRead = true;
        }
        return value;
      }
    };
  }
}
