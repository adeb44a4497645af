package org.strata.lsm.memory;

import java.util.Arrays;
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
