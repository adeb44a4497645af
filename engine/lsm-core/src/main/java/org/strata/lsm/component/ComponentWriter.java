package org.strata.lsm.component;

import org.strata.lsm.io.BigEndian;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.spi.KeySketch;

/**
 * Bulk-loads one disk component, bottom-up, from entries given in strictly ascending key order:
 * leaf pages first, then interior levels up to the root, the Bloom filter, the meta page and the
 * footer (docs/format.md). Every byte goes through the store's {@link IoThrottle}; the file is
 * forced every {@code forceBytes} and at the end. The caller names the file (a temporary name) and
 * renames it once {@link #finish} returns.
 *
 * <p>Not thread-safe: one flush or merge drives one writer.
 */
public final class ComponentWriter implements AutoCloseable {
  private static final int OUT_BUFFER = 256 * 1024;

  private final WritableFile file;
  private final IoThrottle throttle;
  private final long forceBytes;
  private final int pageSize;
  private final double falsePositiveRate;
  private final long minComponentId;
  private final long maxComponentId;
  private final long maxLsn;
  private final long createdMillis;
  private boolean priority;
  private boolean keySketch = true;

  private final PageBuilder page = new PageBuilder();
  private byte[] out = new byte[OUT_BUFFER];
  private int outUsed;
  private long fileOffset;
  private long bytesSinceForce;

  private long[] hashes = new long[1024];
  private final KeySketchBuilder sketch = new KeySketchBuilder();
  private int entryCount;
  private long antimatterCount;
  private byte[] firstKey;
  private byte[] lastKey = new byte[64];
  private int lastKeyLen = -1;
  // The first key of every leaf, the one being built included (added when it gets its first entry).
  private final SeparatorKeys leafKeys = new SeparatorKeys();
  private long[] leafOffsets = new long[256];
  private int[] leafLengths = new int[256];
  private long pageCount;
  private boolean finished;
  private boolean operationOpen;

  /**
   * @param file the open, empty file to write
   * @param throttle the store's shared throttle
   * @param forceBytes force every this many bytes (0: only at the end)
   * @param pageSize target page size in bytes; an entry larger than a page gets a page of its own
   * @param falsePositiveRate Bloom filter target
   * @param minComponentId first flush ordinal covered
   * @param maxComponentId last flush ordinal covered
   * @param maxLsn highest log sequence number covered
   * @param createdMillis creation time recorded in the meta page
   */
  public ComponentWriter(WritableFile file, IoThrottle throttle, long forceBytes, int pageSize,
      double falsePositiveRate, long minComponentId, long maxComponentId, long maxLsn,
      long createdMillis) {
    this.file = file;
    this.throttle = throttle;
    this.forceBytes = forceBytes;
    this.pageSize = pageSize;
    this.falsePositiveRate = falsePositiveRate;
    this.minComponentId = minComponentId;
    this.maxComponentId = maxComponentId;
    this.maxLsn = maxLsn;
    this.createdMillis = createdMillis;
    throttle.operationStarted();
    operationOpen = true;
  }

  /** Makes this writer's throttle acquisitions go ahead of merges' (for flushes). */
  public ComponentWriter withPriority() {
    this.priority = true;
    return this;
  }

  /**
   * Writes no key sketch page (the meta page records offset and length 0): for stores whose merge
   * policy reads no sketches, which saves the page (4 KB) in every component and the sketch's
   * work per entry. Call before the first entry.
   */
  public ComponentWriter withoutKeySketch() {
    if (entryCount > 0) {
      throw new IllegalStateException("withoutKeySketch() after entries were added");
    }
    this.keySketch = false;
    return this;
  }

  /** Adds a value (or anti-matter when {@code value} is null) for a key above the previous one. */
  public void add(byte[] key, byte[] value) throws IOException {
    add(key, 0, key.length, value, 0, value == null ? 0 : value.length, value == null);
  }

  /** Adds an entry from slices of arrays; {@code antimatter} ignores the value slice. */
  public void add(byte[] key, int keyOff, int keyLen, byte[] value, int valOff, int valLen,
      boolean antimatter) throws IOException {
    if (lastKeyLen >= 0
        && Arrays.compareUnsigned(key, keyOff, keyOff + keyLen, lastKey, 0, lastKeyLen) <= 0) {
      throw new IllegalArgumentException("keys must be added in strictly ascending order");
    }
    int entrySize = PageBuilder.leafEntrySize(keyLen, valLen, antimatter);
    if (!page.isEmpty() && page.encodedSizeWith(entrySize) > pageSize) {
      closeLeaf();
    }
    if (page.isEmpty()) {
      leafKeys.add(key, keyOff, keyLen);
    }
    page.addLeaf(key, keyOff, keyLen, value, valOff, valLen, antimatter);
    if (entryCount == hashes.length) {
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
    }
    long hash = KeyHash.hash64(key, keyOff, keyLen);
    hashes[entryCount++] = hash;
    if (keySketch) {
      sketch.add(hash);
    }
    if (antimatter) {
      antimatterCount++;
    }
    if (firstKey == null) {
      firstKey = Arrays.copyOfRange(key, keyOff, keyOff + keyLen);
    }
    if (lastKey.length < keyLen) {
      lastKey = new byte[Math.max(keyLen, lastKey.length * 2)];
    }
    System.arraycopy(key, keyOff, lastKey, 0, keyLen);
    lastKeyLen = keyLen;
  }

  /** Entries added so far. */
  public long entryCount() {
    return entryCount;
  }

  /** Bytes produced so far (written or buffered), a size estimate for splitting outputs. */
  public long bytesProduced() {
    return fileOffset + outUsed + page.encodedSize();
  }

  /** Leaf and interior pages written so far. */
  public long pageCount() {
    return pageCount;
  }

  private void closeLeaf() throws IOException {
    int n = leafKeys.size() - 1; // the leaf being closed; its first key is already listed
    if (n == leafOffsets.length) {
      leafOffsets = Arrays.copyOf(leafOffsets, n * 2);
      leafLengths = Arrays.copyOf(leafLengths, n * 2);
    }
    leafOffsets[n] = fileOffset + outUsed;
    leafLengths[n] = page.encodedSize();
    emitPage(PageType.LEAF);
  }

  private void emitPage(PageType type) throws IOException {
    int size = page.encodedSize();
    reserve(size);
    page.encodeTo(type, out, outUsed);
    outUsed += size;
    pageCount++;
  }

  private void reserve(int size) throws IOException {
    if (outUsed + size > out.length) {
      drain();
      if (size > out.length) {
        out = new byte[size];
      }
    }
  }

  private void writeRaw(byte[] b) throws IOException {
    reserve(b.length);
    System.arraycopy(b, 0, out, outUsed, b.length);
    outUsed += b.length;
  }

  private void drain() throws IOException {
    if (outUsed == 0) {
      return;
    }
    try {
      throttle.acquire(outUsed, priority);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the I/O throttle");
    }
    file.write(ByteBuffer.wrap(out, 0, outUsed));
    fileOffset += outUsed;
    bytesSinceForce += outUsed;
    outUsed = 0;
    if (forceBytes > 0 && bytesSinceForce >= forceBytes) {
      throttle.force(file, priority);
      bytesSinceForce = 0;
    }
    if (out.length > OUT_BUFFER) {
      out = new byte[OUT_BUFFER];
    }
  }

  /**
   * Writes the interior levels, Bloom filter, meta page and footer, forces and closes the file.
   *
   * @throws IllegalStateException if no entry was added
   */
  public ComponentMeta finish() throws IOException {
    if (entryCount == 0) {
      throw new IllegalStateException("a disk component needs at least one entry");
    }
    closeLeaf();
    long leafEnd = fileOffset + outUsed;
    long leafPages = leafKeys.size();
    // Interior levels, bottom-up: each level indexes the one below by first key.
    SeparatorKeys keys = leafKeys;
    long[] offs = Arrays.copyOf(leafOffsets, keys.size());
    int[] lens = Arrays.copyOf(leafLengths, keys.size());
    int height = 1;
    while (keys.size() > 1) {
      SeparatorKeys upKeys = new SeparatorKeys();
      long[] upOffs = new long[keys.size()];
      int[] upLens = new int[keys.size()];
      int up = 0;
      for (int i = 0; i < keys.size(); i++) {
        int keyOff = keys.offset(i);
        int keyLen = keys.length(i);
        int entrySize = PageBuilder.interiorEntrySize(keyLen);
        if (page.count() >= 2 && page.encodedSizeWith(entrySize) > pageSize) {
          upOffs[up] = fileOffset + outUsed;
          upLens[up] = page.encodedSize();
          up++;
          emitPage(PageType.INTERIOR);
        }
        if (page.isEmpty()) {
          upKeys.add(keys.array(), keyOff, keyLen);
        }
        page.addInterior(keys.array(), keyOff, keyLen, offs[i], lens[i]);
      }
      upOffs[up] = fileOffset + outUsed;
      upLens[up] = page.encodedSize();
      up++;
      emitPage(PageType.INTERIOR);
      keys = upKeys;
      offs = Arrays.copyOf(upOffs, up);
      lens = Arrays.copyOf(upLens, up);
      height++;
    }
    long rootOffset = offs[0];
    int rootLength = lens[0];

    BloomFilter bloom = BloomFilter.build(hashes, entryCount, falsePositiveRate);
    ByteBuffer bloomBody = ByteBuffer.allocate(bloom.serializedSize());
    bloom.writeTo(bloomBody);
    long bloomOffset = fileOffset + outUsed;
    byte[] bloomPage = frame(PageType.BLOOM, bloomBody.array());
    writeRaw(bloomPage);

    long sketchOffset = 0;
    int sketchLength = 0;
    if (keySketch) {
      sketchOffset = fileOffset + outUsed;
      KeySketch built = sketch.build();
      byte[] sketchBody = new byte[8 + KeySketch.REGISTERS];
      BigEndian.putLong(sketchBody, 0, built.keysAdded());
      System.arraycopy(built.registers(), 0, sketchBody, 8, KeySketch.REGISTERS);
      byte[] sketchPage = frame(PageType.SKETCH, sketchBody);
      writeRaw(sketchPage);
      sketchLength = sketchPage.length;
    }

    ComponentMeta meta = new ComponentMeta(minComponentId, maxComponentId, createdMillis,
        entryCount, antimatterCount, maxLsn, height, rootOffset, rootLength, 0, leafEnd,
        leafPages, pageCount, bloomOffset, bloomPage.length, sketchOffset, sketchLength,
        firstKey, Arrays.copyOf(lastKey, lastKeyLen));
    long metaOffset = fileOffset + outUsed;
    byte[] metaPage = frame(PageType.META, meta.encode());
    writeRaw(metaPage);
    writeRaw(Footer.encode(metaOffset, metaPage.length));
    drain();
    throttle.force(file, priority);
    file.close();
    finished = true;
    endOperation();
    return meta;
  }

  /** Total bytes in the finished file. */
  public long fileSize() {
    return fileOffset;
  }

  static byte[] frame(PageType type, byte[] body) {
    byte[] b = new byte[PageBuilder.HEADER + body.length + PageBuilder.TRAILER];
    BigEndian.putInt(b, 0, body.length);
    b[4] = (byte) type.code();
    System.arraycopy(body, 0, b, PageBuilder.HEADER, body.length);
    PageCodec.sealChecksum(b, 0, PageBuilder.HEADER + body.length);
    return b;
  }

  /** Closes the file if {@link #finish} did not; the caller deletes it. */
  @Override
  public void close() throws IOException {
    endOperation();
    if (!finished) {
      finished = true;
      file.close();
    }
  }

  private void endOperation() {
    if (operationOpen) {
      operationOpen = false;
      throttle.operationEnded();
    }
  }
}
