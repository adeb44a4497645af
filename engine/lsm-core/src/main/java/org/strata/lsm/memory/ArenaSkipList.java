package org.strata.lsm.memory;

import static org.strata.lsm.memory.Arena.INTS;
import static org.strata.lsm.memory.Arena.LONGS;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free concurrent skip list of versioned entries whose nodes live in an {@link Arena}: an
 * entry is stored once, as one allocation holding its header, its links and its key, and its value
 * as one allocation in a second arena; a node costs no Java object. Nodes are named by their arena
 * address; address 0 is the head and, as a link, the end of a level.
 *
 * <p>Values apart: a search reads only headers, links and keys, so with values kept out of the
 * node arena those sit close together (a node of a 16-byte key is 48 bytes on average against
 * over a kilobyte with a 1,000-byte value inline) and a search touches far fewer cache lines and
 * pages. A value is read when a reader copies it out, once per entry.
 *
 * <p>Entries are ordered by key ascending (unsigned bytes), then by log sequence number (LSN)
 * descending. Every write inserts a new entry and nothing is removed, so writers of the same key
 * never read-modify-write: the newest version is simply the first entry of its key, which is what
 * {@link #seek} finds. An entry with the same key and LSN as one already present goes after it,
 * so the first written of the two stays visible (a replayed write cannot replace itself).
 *
 * <p>Node layout (native byte order; the node starts 8-aligned):
 * <pre>
 *   0   long  LSN
 *   8   int   key length (low 24 bits) | height (high 8 bits)
 *   12  int   value length, or -1 for anti-matter
 *   16  long  the value's address in the value arena (unused for an empty value or anti-matter)
 *   24  long  next[0 .. height-1]: addresses of the next node at each level, 0 at the end
 *   24 + 8 * height   key bytes
 * </pre>
 * A node costs 24 bytes, 8 per level (4/3 levels on average: a node reaches level {@code i+1} with
 * probability 1/4, as in RocksDB's skip lists) and up to 7 bytes of alignment beyond its key; its
 * value costs its own bytes (the value arena packs them).
 *
 * <p>Concurrency: an insert writes its value's and its node's bytes, then links it level by level
 * from the bottom up, each link one compare-and-set of the predecessor's next field; a failed
 * compare-and-set searches again from the same predecessor (nodes are never removed, so the
 * predecessor stays before the new node). Readers read links with acquire semantics, so a reader
 * that reaches a node sees its bytes. A node is in the list once it is linked at level 0; higher
 * levels only speed searches up. Readers and writers never block each other.
 */
final class ArenaSkipList {
  /** The most levels a node may have. */
  static final int MAX_HEIGHT = 16;
  private static final int LSN = 0;
  private static final int KEY_AND_HEIGHT = 8;
  private static final int VALUE_LENGTH = 12;
  private static final int VALUE_ADDRESS = 16;
  private static final int LINKS = 24;
  private static final int KEY_LENGTH_MASK = (1 << 24) - 1;
  private static final long HEAD = 0;
  private static final long END = 0;
  /** The first 8 bytes of a key as one {@code long} whose unsigned order is the bytes' order. */
  private static final VarHandle PREFIX =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** Nodes: headers, links and keys. */
  private final Arena arena = new Arena();
  /** Values, one allocation each (none for an empty value or anti-matter), packed unaligned. */
  private final Arena values = new Arena(false);
  /** Levels in use; raised (never lowered) by inserts of taller nodes. */
  private final AtomicInteger height = new AtomicInteger(1);
  /** {@link #nodeBytes} of each key's newest version, summed ({@link #liveBytes()}). */
  private final LongAdder liveBytes = new LongAdder();

  ArenaSkipList() {
    long head = arena.allocate(LINKS + 8 * MAX_HEIGHT);
    if (head != HEAD) {
      throw new IllegalStateException("the head must be the arena's first allocation");
    }
    byte[] b = arena.chunk(head);
    INTS.set(b, KEY_AND_HEIGHT, MAX_HEIGHT << 24);
  }

  /**
   * Inserts an entry (the arrays are copied).
   *
   * @param value the value, or null for anti-matter
   * @return true if no other entry had {@code key} when this one was linked, so it added a key
   */
  boolean insert(byte[] key, byte[] value, long lsn) {
    int h = randomHeight();
    int valueLength = value == null ? -1 : value.length;
    long node = arena.allocate(LINKS + 8 * h + key.length);
    byte[] b = arena.chunk(node);
    int o = Arena.offset(node);
    LONGS.set(b, o + LSN, lsn);
    INTS.set(b, o + KEY_AND_HEIGHT, key.length | (h << 24));
    INTS.set(b, o + VALUE_LENGTH, valueLength);
    System.arraycopy(key, 0, b, o + LINKS + 8 * h, key.length);
    if (valueLength > 0) {
      long v = values.allocate(valueLength);
      System.arraycopy(value, 0, values.chunk(v), Arena.offset(v), valueLength);
      LONGS.set(b, o + VALUE_ADDRESS, v);
    }
    int listHeight = height.get();
    while (h > listHeight && !height.compareAndSet(listHeight, h)) {
      listHeight = height.get();
    }
    // prev[i] and next[i]: where the node goes at level i (for its own levels only)
    long[] splice = new long[2 * h];
    long x = HEAD;
    for (int level = Math.max(listHeight, h) - 1; level >= 0; level--) {
      long nx = link(x, level);
      while (nx != END && before(nx, key, lsn)) {
        x = nx;
        nx = link(x, level);
      }
      if (level < h) {
        splice[2 * level] = x;
        splice[2 * level + 1] = nx;
      }
    }
    boolean newKey = false;
    for (int level = 0; level < h; level++) {
      long prev = splice[2 * level];
      long next = splice[2 * level + 1];
      while (true) {
        LONGS.set(b, o + LINKS + 8 * level, next);
        if (casLink(prev, level, next, node)) {
          break;
        }
        // someone linked a node after prev meanwhile: search on from prev at this level
        next = link(prev, level);
        while (next != END && before(next, key, lsn)) {
          prev = next;
          next = link(prev, level);
        }
      }
      if (level == 0) {
        // same-key entries are adjacent at level 0 and none is ever removed, so the key was
        // present exactly when a neighbour at the moment of the link has it; the node is its
        // key's newest version when its predecessor has another key, and then replaces the
        // successor as the newest if that one has the same key
        boolean newest = prev == HEAD || !keyEquals(prev, key);
        boolean replaces = next != END && keyEquals(next, key);
        newKey = newest && !replaces;
        if (newest) {
          liveBytes.add(nodeBytes(node) - (replaces ? nodeBytes(next) : 0));
        }
      }
    }
    return newKey;
  }

  /** The first node whose key is at least {@code key} (its newest version), or 0. */
  long seek(byte[] key) {
    long x = HEAD;
    long nx = END;
    for (int level = height.get() - 1; level >= 0; level--) {
      nx = link(x, level);
      while (nx != END && compareKey(nx, key) < 0) {
        x = nx;
        nx = link(x, level);
      }
    }
    // the level-0 successor just compared, not a fresh read of x's link: a node linked after x
    // since then may order before key
    return nx;
  }

  /** The first node, or 0 when empty. */
  long first() {
    return link(HEAD, 0);
  }

  /** The node after {@code node} at level 0, or 0. */
  long next(long node) {
    return link(node, 0);
  }

  /** The first node after {@code node} with a different key (skipping older versions), or 0. */
  long nextKey(long node) {
    long n = link(node, 0);
    while (n != END && sameKey(n, node)) {
      n = link(n, 0);
    }
    return n;
  }

  /**
   * The {@link #nodeBytes} of every key's newest version, summed: the bytes the list would hold
   * if it kept one version per key. Kept as inserts link their nodes (each insert adds its node's
   * bytes less those of the version it displaces, or nothing if a newer version is already
   * linked), so it costs nothing to read; exact once concurrent inserts have returned.
   */
  long liveBytes() {
    return liveBytes.sum();
  }

  /** Arena bytes of {@code node}: header, links and key aligned to 8 bytes, and its value. */
  long nodeBytes(long node) {
    byte[] b = arena.chunk(node);
    int o = Arena.offset(node);
    int valueLength = Math.max((int) INTS.get(b, o + VALUE_LENGTH), 0);
    int size = keyOffset(b, o) - o + keyLength(b, o);
    return ((size + 7) & -8) + valueLength;
  }

  boolean isEmpty() {
    return first() == END;
  }

  /** Arena bytes the list holds, nodes and values (see {@link Arena#sizeBytes()}). */
  long sizeBytes() {
    return arena.sizeBytes() + values.sizeBytes();
  }

  /**
   * The node's key compared with {@code key} (unsigned bytes), in place: only the sign is
   * meaningful. Keys of at least 8 bytes are first told apart by their first 8 bytes read as one
   * big-endian {@code long} (unsigned order is byte order), which settles nearly every comparison
   * of a search without a call into the array mismatch; equal prefixes compare the whole keys.
   */
  int compareKey(long node, byte[] key) {
    byte[] b = arena.chunk(node);
    int o = Arena.offset(node);
    int keyAndHeight = (int) INTS.get(b, o + KEY_AND_HEIGHT);
    int at = o + LINKS + 8 * (keyAndHeight >>> 24);
    int length = keyAndHeight & KEY_LENGTH_MASK;
    if (length >= 8 && key.length >= 8) {
      long mine = (long) PREFIX.get(b, at);
      long theirs = (long) PREFIX.get(key, 0);
      if (mine != theirs) {
        return Long.compareUnsigned(mine, theirs);
      }
    }
    return Arrays.compareUnsigned(b, at, at + length, key, 0, key.length);
  }

  /** A copy of the node's key. */
  byte[] key(long node) {
    byte[] b = arena.chunk(node);
    int o = Arena.offset(node);
    int at = keyOffset(b, o);
    return Arrays.copyOfRange(b, at, at + keyLength(b, o));
  }

  /** A copy of the node's value, or null for anti-matter. */
  byte[] value(long node) {
    byte[] b = arena.chunk(node);
    int o = Arena.offset(node);
    int length = (int) INTS.get(b, o + VALUE_LENGTH);
    if (length <= 0) {
      return length < 0 ? null : new byte[0];
    }
    long v = (long) LONGS.get(b, o + VALUE_ADDRESS);
    int at = Arena.offset(v);
    return Arrays.copyOfRange(values.chunk(v), at, at + length);
  }

  /** The node's log sequence number. */
  long lsn(long node) {
    return (long) LONGS.get(arena.chunk(node), Arena.offset(node) + LSN);
  }

  private boolean keyEquals(long node, byte[] key) {
    return compareKey(node, key) == 0;
  }

  /** Whether nodes {@code a} and {@code c} hold the same key. */
  boolean sameKey(long a, long c) {
    byte[] ba = arena.chunk(a);
    int oa = Arena.offset(a);
    byte[] bc = arena.chunk(c);
    int oc = Arena.offset(c);
    int at = keyOffset(ba, oa);
    int ct = keyOffset(bc, oc);
    return Arrays.equals(ba, at, at + keyLength(ba, oa), bc, ct, ct + keyLength(bc, oc));
  }

  /** True if {@code node} orders before the entry ({@code key}, {@code lsn}). */
  private boolean before(long node, byte[] key, long lsn) {
    int c = compareKey(node, key);
    return c < 0 || (c == 0 && lsn(node) >= lsn);
  }

  private long link(long node, int level) {
    return (long) LONGS.getAcquire(arena.chunk(node), Arena.offset(node) + LINKS + 8 * level);
  }

  private boolean casLink(long node, int level, long expect, long update) {
    return LONGS.compareAndSet(arena.chunk(node), Arena.offset(node) + LINKS + 8 * level, expect,
        update);
  }

  private static int keyLength(byte[] b, int o) {
    return (int) INTS.get(b, o + KEY_AND_HEIGHT) & KEY_LENGTH_MASK;
  }

  private static int keyOffset(byte[] b, int o) {
    return o + LINKS + 8 * ((int) INTS.get(b, o + KEY_AND_HEIGHT) >>> 24);
  }

  /** 1 plus one level per pair of zero bits at the bottom of a random number: P(i+1) = P(i)/4. */
  private static int randomHeight() {
    int r = ThreadLocalRandom.current().nextInt();
    int h = 1;
    while ((r & 3) == 0 && h < MAX_HEIGHT) {
      h++;
      r >>>= 2;
    }
    return h;
  }
}
