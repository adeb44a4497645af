package org.strata.lsm.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Space for one memory component's entries, handed out from a few large on-heap chunks by an
 * atomic bump pointer. An allocation is named by an <em>address</em>, a {@code long} holding the
 * chunk's number in its high 32 bits and the offset in the chunk in its low 32 bits; every
 * allocation starts on an 8-byte boundary, so its first bytes can hold {@code long}s that are
 * compare-and-set through {@link #LONGS}. Nothing is ever freed: the whole arena becomes garbage
 * with its memory component.
 *
 * <p>Chunks start at {@value #FIRST_CHUNK} bytes and double up to {@value #MAX_CHUNK}, so a small
 * memory component (a few KiB in tests, one per index of a dataset) does not pin a large array,
 * while a 64 MiB one costs 256 arrays. An allocation larger than a quarter of the next chunk gets
 * a chunk of its own (exactly its size), so a large value wastes at most what its own alignment
 * needs and never retires a half-used chunk.
 *
 * <p>Why 256 KiB and not more: G1, the default collector, stores an object of half a region or
 * more as a <em>humongous</em> object in whole regions of its own, and its smallest region is 1
 * MiB. A 1 MiB chunk (plus its 16-byte array header) took two 1 MiB regions, which doubled the
 * heap cost of a full component (measured: 2.0 heap bytes per arena byte, see
 * docs/performance.md). A chunk of a quarter of the smallest region is never humongous.
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
  /** Bytes of a chunk once the arena has grown (256 KiB: never a G1 humongous object). */
  static final int MAX_CHUNK = 256 * 1024;
  /** Every allocation starts at a multiple of this. */
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
  /** Every chunk by number; replaced (copied) when it grows, under {@code growLock}. */
  private volatile byte[][] chunks = new byte[16][];
  private int chunkCount; // guarded by growLock
  private int nextChunkSize = FIRST_CHUNK; // guarded by growLock
  private volatile Chunk current;
  /** Bytes of chunks given to single large allocations. */
  private final AtomicLong ownChunkBytes = new AtomicLong();

  Arena() {
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
    if (size <= 0 || size > Integer.MAX_VALUE - ALIGN) {
      throw new IllegalArgumentException("arena allocation of " + size
          + " bytes; allocations must have 1 to " + (Integer.MAX_VALUE - ALIGN) + " bytes");
    }
    int aligned = (size + ALIGN - 1) & -ALIGN;
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
    byte[] bytes = new byte[size];
    Chunk c = new Chunk(addChunk(bytes), bytes, before);
    nextChunkSize = Math.min(MAX_CHUNK, size * 2);
    return c;
  }

  /** Adds a chunk to the table and returns its number. Caller holds {@code growLock}. */
  private int addChunk(byte[] bytes) {
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
   * Bytes the arena holds: every allocation rounded up to {@value #ALIGN} bytes plus the unused
   * tails of retired chunks; at most the current chunk's free tail (under {@value #MAX_CHUNK}
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
}
