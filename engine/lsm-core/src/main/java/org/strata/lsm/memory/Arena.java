package org.strata.lsm.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.strata.lsm.io.HeapRegions;

/**
 * Space for one memory component's entries, handed out from a few large on-heap chunks by an
 * atomic bump pointer. An allocation is named by an <em>address</em>, a {@code long} holding the
 * chunk's number in its high 32 bits and the offset in the chunk in its low 32 bits; every
 * allocation of an aligned arena starts on an 8-byte boundary, so its first bytes can hold {@code
 * long}s that are compare-and-set through {@link #LONGS} (an unaligned arena, for bytes that are
 * only copied, packs its allocations). Nothing is ever freed: the whole arena becomes garbage
 * with its memory component.
 *
 * <p>Chunks start at {@value #FIRST_CHUNK} bytes and double up to {@link #MAX_CHUNK}, so a small
 * memory component (a few KiB in tests, one per index of a dataset) does not pin a large array.
 * An allocation larger than a quarter of the next chunk gets a chunk of its own (exactly its
 * size), so a large value wastes at most what its own alignment needs and never retires a
 * half-used chunk.
 *
 * <p>The largest chunk fills one G1 region exactly (less a few bytes for the array's header), when
 * G1 is the collector. G1 stores an object of half a region or more as a <em>humongous</em>
 * object in regions of its own, allocated outside the young generation: it is never copied by a
 * young collection and, once its memory component is dropped, is reclaimed by the next one. A
 * chunk of exactly a region (1 MiB plus the header, a first try) took two regions and doubled the
 * heap cost of a full component; a chunk of a quarter region (256 KiB, the next try) was an
 * ordinary young object, so each young collection copied the whole memory component between
 * survivor spaces until it was promoted (8 MB of a busy component: the 4-8 ms young pauses of
 * docs/performance-journal.md). Under any other collector the largest chunk is 256 KiB.
 *
 * <p>On-heap {@code byte[]} chunks rather than direct buffers: the collector sees a few large
 * arrays instead of millions of small objects (which is what makes the heap cost per data byte
 * low), entry bytes copy in and out with {@link System#arraycopy}, keys compare in place with
 * {@link Arrays#compareUnsigned(byte[], int, int, byte[], int, int)}, and nothing needs freeing by
 * hand when a flushed component is dropped.
 *
 * <p>Thread safety: {@link #allocate} may be called by any number of threads; the fast path is one
 * compare-and-set on the current chunk's top, opening a chunk takes a lock. Bytes written into an
 * allocation are published to other threads by the writer's own release (a compare-and-set of a
 * link), and {@link #chunk} is safe to call for any address so published.
 */
final class Arena {
  /** Bytes of the first chunk. */
  static final int FIRST_CHUNK = 8 * 1024;
  /**
   * Bytes of a chunk once the arena has grown: one G1 region less {@value #ARRAY_HEADER_SLACK}
   * bytes under G1, else {@value #OTHER_MAX_CHUNK} (see the class comment).
   */
  static final int MAX_CHUNK = maxChunk();
  /** The largest chunk under collectors other than G1. */
  static final int OTHER_MAX_CHUNK = 256 * 1024;
  /** Bytes left for a {@code byte[]}'s header (16, or 24 without compressed class pointers). */
  static final int ARRAY_HEADER_SLACK = 64;
  /** Every allocation of an aligned arena starts at a multiple of this. */
  static final int ALIGN = 8;

  /** {@code long} access to chunk bytes (native order; 8-aligned offsets allow compare-and-set). */
  static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  /** {@code int} access to chunk bytes (native order). */
  static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

  /** The chunk being bumped, with the arena bytes counted before it. */
  private static final class Chunk {
    final int number;
    final byte[] bytes;
    /** Bytes of all chunks retired before this one (their unused tails included). */
    final long before;
    final AtomicInteger top = new AtomicInteger();

    Chunk(int number, byte[] bytes, long before) {
      this.number = number;
      this.bytes = bytes;
      this.before = before;
    }
  }

  private final Object growLock = new Object();
  /** {@link #ALIGN}, or 1 for an arena of byte copies only. */
  private final int align;
  /** Every chunk by number; replaced (copied) when it grows, under {@code growLock}. */
  private volatile byte[][] chunks = new byte[16][];
  private int chunkCount; // guarded by growLock
  private int nextChunkSize = FIRST_CHUNK; // guarded by growLock
  private volatile Chunk current;
  /** Bytes of chunks given to single large allocations. */
  private final AtomicLong ownChunkBytes = new AtomicLong();

  /** An arena whose allocations start on {@value #ALIGN}-byte boundaries. */
  Arena() {
    this(true);
  }

  /**
   * An arena whose allocations start on {@value #ALIGN}-byte boundaries ({@code aligned}), so that
   * they can hold {@code long}s accessed through {@link #LONGS}, or anywhere (byte copies only).
   */
  Arena(boolean aligned) {
    this.align = aligned ? ALIGN : 1;
    synchronized (growLock) {
      current = openChunk(nextChunkSize, 0);
    }
  }

  /**
   * Reserves {@code size} bytes (at least 1) and returns their address; the bytes are zero.
   *
   * @throws IllegalArgumentException if {@code size} is not positive or would exceed 2 GiB once
   *     aligned
   */
  long allocate(int size) {
    if (size <= 0 || size > Integer.MAX_VALUE - align) {
      throw new IllegalArgumentException("arena allocation of " + size
          + " bytes; allocations must have 1 to " + (Integer.MAX_VALUE - align) + " bytes");
    }
    int aligned = (size + align - 1) & -align;
    while (true) {
      Chunk c = current;
      int top = c.top.get();
      if (top + aligned <= c.bytes.length && top + aligned > 0) {
        if (c.top.compareAndSet(top, top + aligned)) {
          return address(c.number, top);
        }
        continue;
      }
      Long own = openOrAllocateOwn(c, aligned);
      if (own != null) {
        return own;
      }
    }
  }

  /**
   * Slow path: gives a large allocation its own chunk (returns its address), or retires the full
   * chunk {@code full} and opens the next one (returns null: the caller retries).
   */
  private Long openOrAllocateOwn(Chunk full, int aligned) {
    synchronized (growLock) {
      if (aligned > nextChunkSize / 4) {
        byte[] own = new byte[aligned];
        int number = addChunk(own);
        ownChunkBytes.addAndGet(aligned);
        return address(number, 0);
      }
      if (current == full) {
        // the retired chunk's unused tail stays counted: the heap still holds it
        current = openChunk(nextChunkSize, full.before + full.bytes.length);
      }
      return null;
    }
  }

  /** Opens a chunk of {@code size} bytes as the current one. Caller holds {@code growLock}. */
  private Chunk openChunk(int size, long before) {
    assert Thread.holdsLock(growLock) : "caller holds growLock";
    byte[] bytes = new byte[size];
    Chunk c = new Chunk(addChunk(bytes), bytes, before);
    // doubling, until the next size would pass 256 KiB: then the largest chunk (under G1 one
    // whole region; a chunk between half a region and a region would take a region of its own)
    nextChunkSize = size * 2 > OTHER_MAX_CHUNK ? MAX_CHUNK : size * 2;
    return c;
  }

  /** Adds a chunk to the table and returns its number. Caller holds {@code growLock}. */
  private int addChunk(byte[] bytes) {
    assert Thread.holdsLock(growLock) : "caller holds growLock";
    byte[][] table = chunks;
    if (chunkCount == table.length) {
      table = Arrays.copyOf(table, table.length * 2);
    }
    table[chunkCount] = bytes;
    chunks = table; // volatile write: publishes the element with the table
    return chunkCount++;
  }

  /** The chunk holding the allocation at {@code address}. */
  byte[] chunk(long address) {
    return chunks[(int) (address >>> 32)];
  }

  /** The offset of {@code address} within its chunk. */
  static int offset(long address) {
    return (int) address;
  }

  private static long address(int chunk, int offset) {
    return ((long) chunk << 32) | offset;
  }

  /**
   * Bytes the arena holds: every allocation rounded up to its alignment plus the unused
   * tails of retired chunks; at most the current chunk's free tail (under {@link #MAX_CHUNK}
   * bytes) less than the heap arrays' total size.
   */
  long sizeBytes() {
    Chunk c = current;
    return c.before + Math.min(c.top.get(), c.bytes.length) + ownChunkBytes.get();
  }

  /** Chunks opened so far (own chunks of large allocations included). */
  int chunkCount() {
    synchronized (growLock) {
      return chunkCount;
    }
  }

  /** {@link #MAX_CHUNK}: from the running JVM's collector and G1 region size. */
  private static int maxChunk() {
    long region = HeapRegions.G1_REGION_BYTES;
    if (region >= 2L * OTHER_MAX_CHUNK && region <= 64L * 1024 * 1024) {
      return (int) region - ARRAY_HEADER_SLACK;
    }
    return OTHER_MAX_CHUNK;
  }
}
