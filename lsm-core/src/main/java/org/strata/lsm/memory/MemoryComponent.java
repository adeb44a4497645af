package org.strata.lsm.memory;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.strata.lsm.component.EntryCursor;

/**
 * An in-memory component: a concurrent sorted map from key to the newest value or anti-matter,
 * with byte-budget accounting. Concurrent writers may insert in any order: each entry carries the
 * log sequence number of its write and a newer number always wins, so the map ends in the state the
 * log replays to. Once sealed for flushing it receives no more writes.
 */
public final class MemoryComponent {
  /** Per-entry overhead charged to the budget (skip-list node, entry object, array headers). */
  public static final int ENTRY_OVERHEAD = 64;

  private final long id;
  private final ConcurrentSkipListMap<byte[], Versioned> map =
      new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong userBytes = new AtomicLong();
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

  /** Inserts or replaces {@code key}; {@code value} null writes anti-matter. */
  public void put(byte[] key, byte[] value, long lsn) {
    Versioned v = new Versioned(value, lsn);
    map.merge(key, v, (old, neu) -> neu.lsn() > old.lsn() ? neu : old);
    int user = key.length + (value == null ? 0 : value.length);
    bytes.addAndGet(user + ENTRY_OVERHEAD);
    userBytes.addAndGet(user);
    maxLsn.accumulateAndGet(lsn, Math::max);
    minLsn.accumulateAndGet(lsn, Math::min);
  }

  /** The newest entry for {@code key}, or null. */
  public Versioned get(byte[] key) {
    return map.get(key);
  }

  /** Bytes charged to the memory budget. */
  public long sizeBytes() {
    return bytes.get();
  }

  /** Key plus value bytes of every write applied (overwritten ones included). */
  public long userBytes() {
    return userBytes.get();
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
    return map.isEmpty();
  }

  /** Distinct keys held. */
  public int entryCount() {
    return map.size();
  }

  /** Marks the component as flushing; the store sends no more writes to it. */
  public void seal() {
    sealed = true;
  }

  public boolean isSealed() {
    return sealed;
  }

  /** A cursor over [from, to] (null bounds are open), weakly consistent while writers run. */
  public EntryCursor cursor(byte[] from, byte[] to) {
    NavigableMap<byte[], Versioned> view = map;
    if (from != null && to != null) {
      if (Arrays.compareUnsigned(from, to) > 0) {
        view = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
      } else {
        view = map.subMap(from, true, to, true);
      }
    } else if (from != null) {
      view = map.tailMap(from, true);
    } else if (to != null) {
      view = map.headMap(to, true);
    }
    Iterator<Map.Entry<byte[], Versioned>> it = view.entrySet().iterator();
    return new EntryCursor() {
      private Map.Entry<byte[], Versioned> cur;

      @Override
      public boolean next() {
        cur = it.hasNext() ? it.next() : null;
        return cur != null;
      }

      @Override
      public byte[] key() {
        return cur.getKey();
      }

      @Override
      public byte[] value() {
        return cur.getValue().value();
      }
    };
  }
}
