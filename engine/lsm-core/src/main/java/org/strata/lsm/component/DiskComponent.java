package org.strata.lsm.component;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.ReadableFile;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.KeySketch;

/**
 * An open, immutable disk component: a bulk-loaded B+-tree file with a Bloom filter
 * (docs/format.md). Reads go through the store's {@link PageCache}, and every page read from the
 * file is checked against its CRC32C; a mismatch raises {@link CorruptionException} naming the file
 * and offset.
 *
 * <p>Reference-counted: the run lists (versions) that contain it and the readers of those versions
 * hold references. Once {@link #markObsolete()} was called and the last reference is released, the
 * file is closed and deleted.
 */
public final class DiskComponent {
  private static final Logger LOG = LogManager.getLogger(DiskComponent.class);

  private final Path path;
  private final long fileId;
  private final PageCache cache;
  private final ComponentMeta meta;
  private final BloomFilter bloom;
  private final KeySketch sketch;
  private final long fileSize;
  private final FileIo io;
  /** TRIAD-LOG: the log segment a CL-SSTable's leaf values point into; null for a B+-tree. */
  private final LogSegmentValues segment;
  private volatile ReadableFile channel;
  private final AtomicInteger refs = new AtomicInteger(1);
  private volatile boolean obsolete;
  private long metaChecksum; // set once by open, before the component is shared

  private DiskComponent(Path path, long fileId, PageCache cache, FileIo io, ReadableFile channel,
      ComponentMeta meta, BloomFilter bloom, KeySketch sketch, long fileSize,
      LogSegmentValues segment) {
    this.path = path;
    this.io = io;
    this.segment = segment;
    this.fileId = fileId;
    this.cache = cache;
    this.channel = channel;
    this.meta = meta;
    this.bloom = bloom;
    this.sketch = sketch;
    this.fileSize = fileSize;
  }

  /**
   * Opens a component file, checking its footer, meta page and Bloom filter page. The caller holds
   * the one initial reference.
   */
  public static DiskComponent open(Path path, long fileId, PageCache cache) {
    return open(path, fileId, cache, FileIo.standard());
  }

  /**
   * As {@link #open(Path, long, PageCache)}, with every read and the final deletion of the file
   * going through {@code io}.
   */
  public static DiskComponent open(Path path, long fileId, PageCache cache, FileIo io) {
    return open(path, fileId, cache, io, null);
  }

  /**
   * Opens a CL-SSTable (TRIAD-LOG): the index file {@code path}, whose leaf values are log
   * pointers into the segment {@code segmentPath}; reads return the values in the segment. The
   * caller holds the one initial reference; the segment file is deleted with the index file.
   * Reads of both files, and the segment's deletion, go through {@code io}.
   *
   * @throws CorruptionException naming the segment if it is missing
   */
  public static DiskComponent openLogBacked(Path path, long fileId, PageCache cache,
      Path segmentPath, FileIo io) {
    LogSegmentValues segment = LogSegmentValues.open(segmentPath, io);
    try {
      return open(path, fileId, cache, io, segment);
    } catch (RuntimeException e) {
      segment.close(false);
      throw e;
    }
  }

  /** As {@link #openLogBacked(Path, long, PageCache, Path, FileIo)} on the real file system. */
  public static DiskComponent openLogBacked(Path path, long fileId, PageCache cache,
      Path segmentPath) {
    return openLogBacked(path, fileId, cache, segmentPath, FileIo.standard());
  }

  private static DiskComponent open(Path path, long fileId, PageCache cache, FileIo io,
      LogSegmentValues segment) {
    ReadableFile ch = null;
    try {
      ch = io.openForRead(path);
      long size = ch.size();
      if (size < Footer.SIZE) {
        throw new CorruptionException(path, 0, "file of " + size + " bytes is too short for a"
            + " component footer");
      }
      byte[] footer = readFully(ch, size - Footer.SIZE, Footer.SIZE);
      long[] m = Footer.decode(footer, path, size);
      byte[] metaPage = readFully(ch, m[0], (int) m[1]);
      ComponentMeta meta = ComponentMeta.decode(
          PageCodec.checkedBody(metaPage, 0, metaPage.length, PageType.META, path, m[0]), path,
          m[0]);
      if (meta.bloomOffset() < 0 || meta.bloomOffset() + meta.bloomLength() > m[0]
          || meta.rootOffset() < 0 || meta.rootOffset() + meta.rootLength() > m[0]) {
        throw new CorruptionException(path, m[0], "meta page points outside the file");
      }
      byte[] bloomPage = readFully(ch, meta.bloomOffset(), meta.bloomLength());
      BloomFilter bloom;
      try {
        bloom = BloomFilter.readFrom(ByteBuffer.wrap(PageCodec.checkedBody(bloomPage, 0,
            bloomPage.length, PageType.BLOOM, path, meta.bloomOffset())));
      } catch (IllegalArgumentException e) {
        throw new CorruptionException(path, meta.bloomOffset(), e.getMessage());
      }
      KeySketch sketch = null;
      if (meta.sketchLength() > 0) {
        if (meta.sketchOffset() < 0 || meta.sketchOffset() + meta.sketchLength() > m[0]) {
          throw new CorruptionException(path, m[0], "meta page points outside the file");
        }
        byte[] sketchPage = readFully(ch, meta.sketchOffset(), meta.sketchLength());
        byte[] body = PageCodec.checkedBody(sketchPage, 0, sketchPage.length, PageType.SKETCH,
            path, meta.sketchOffset());
        if (body.length != 8 + KeySketch.REGISTERS) {
          throw new CorruptionException(path, meta.sketchOffset(), "key sketch page has "
              + body.length + " bytes");
        }
        sketch = KeySketch.of(java.util.Arrays.copyOfRange(body, 8, body.length),
            org.strata.lsm.io.BigEndian.getLong(body, 0));
      }
      DiskComponent c = new DiskComponent(path, fileId, cache, io, ch, meta, bloom, sketch, size,
          segment);
      c.metaChecksum = org.strata.lsm.io.BigEndian.getInt(metaPage, metaPage.length - 4)
          & 0xFFFFFFFFL;
      return c;
    } catch (IOException e) {
      closeQuietly(ch);
      throw new StorageException("cannot open component " + path + ": " + e, e);
    } catch (RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  private static void closeQuietly(ReadableFile ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // nothing to add to the error being raised
      }
    }
  }

  static byte[] readFully(ReadableFile ch, long offset, int len) throws IOException {
    byte[] b = new byte[len];
    ByteBuffer buf = ByteBuffer.wrap(b);
    while (buf.hasRemaining()) {
      int n = ch.read(buf, offset + buf.position());
      if (n < 0) {
        throw new java.io.EOFException("read past the end of the file at " + (offset
            + buf.position()));
      }
    }
    return b;
  }

  public Path path() {
    return path;
  }

  public long fileId() {
    return fileId;
  }

  public ComponentMeta meta() {
    return meta;
  }

  /**
   * The CRC32C of the meta page (the checksum its framing carries): it covers the component ids,
   * creation time, counts, maximum sequence number and key range, so two components' differ with
   * overwhelming probability. The manifest records it to tell a file from another with its name.
   */
  public long metaChecksum() {
    return metaChecksum;
  }

  /** The log segment of a CL-SSTable, or null for a B+-tree component. */
  public Path logSegmentPath() {
    return segment == null ? null : segment.path();
  }

  /** Bytes of the component file (for a CL-SSTable, of its index file: what a flush wrote). */
  public long sizeBytes() {
    return fileSize;
  }

  /**
   * Bytes the component occupies on disk: its file, plus for a CL-SSTable its log segment (what a
   * merge reads, and what the store's disk use counts).
   */
  public long storedBytes() {
    return segment == null ? fileSize : fileSize + segment.sizeBytes();
  }

  /** The log segment of a CL-SSTable (TRIAD-LOG), or null for a B+-tree component. */
  public LogSegmentValues logSegment() {
    return segment;
  }

  /**
   * The value of an entry as stored in a leaf: itself, or for a CL-SSTable the value its log
   * pointer points at (anti-matter stays null).
   */
  byte[] resolve(byte[] key, byte[] stored) {
    return segment == null || stored == null ? stored : segment.resolve(key, stored, path);
  }

  public BloomFilter bloomFilter() {
    return bloom;
  }

  /** The HyperLogLog sketch of the component's keys, or null for a file without one. */
  public KeySketch keySketch() {
    return sketch;
  }

  /** The policy's view of this component. */
  public ComponentInfo info() {
    return new ComponentInfo(path.getFileName().toString(), meta.minComponentId(),
        meta.maxComponentId(), storedBytes(), meta.entryCount(), meta.pageCount(), meta.minKey(),
        meta.maxKey());
  }

  // ---- reference counting ----------------------------------------------------------------

  /** Takes a reference; fails if the component was already released for good. */
  public void retain() {
    while (true) {
      int r = refs.get();
      if (r <= 0) {
        throw new IllegalStateException("component " + path + " was already released");
      }
      if (refs.compareAndSet(r, r + 1)) {
        return;
      }
    }
  }

  /** Drops a reference; the last one closes the file, and deletes it when obsolete. */
  public void release() {
    int r = refs.decrementAndGet();
    if (r == 0) {
      closeQuietly(channel);
      cache.invalidate(fileId);
      if (segment != null) {
        segment.close(obsolete);
      }
      if (obsolete) {
        try {
          io.delete(path);
        } catch (IOException e) {
          LOG.warn("cannot delete obsolete component {}: {}", path, e.toString());
        }
      }
    } else if (r < 0) {
      throw new IllegalStateException("component " + path + " released too often");
    }
  }

  /** Marks the file for deletion once the last reference is gone. */
  public void markObsolete() {
    obsolete = true;
  }

  // ---- reads ------------------------------------------------------------------------------

  /** The page at {@code offset}, through the page cache. */
  Page page(long offset, int length, PageType type) {
    Page p = cache.get(fileId, offset);
    if (p != null) {
      return p;
    }
    byte[] raw = read(offset, length);
    p = PageCodec.decode(raw, 0, length, type, path, offset);
    cache.put(fileId, offset, p);
    return p;
  }

  private byte[] read(long offset, int length) {
    if (offset < 0 || length < 0 || offset + length > fileSize) {
      throw new CorruptionException(path, offset, "page of " + length
          + " bytes lies outside the file");
    }
    for (int attempt = 0; ; attempt++) {
      try {
        return readFully(channel, offset, length);
      } catch (ClosedChannelException e) {
        // An interrupted reader closes a FileChannel for everyone; reopen once and retry.
        if (attempt > 0 || refs.get() <= 0) {
          throw new StorageException("cannot read " + path + ": channel closed", e);
        }
        reopen();
      } catch (IOException e) {
        throw new StorageException("cannot read " + path + " at offset " + offset + ": " + e, e);
      }
    }
  }

  private synchronized void reopen() {
    if (!channel.isOpen()) {
      try {
        channel = io.openForRead(path);
      } catch (IOException e) {
        throw new StorageException("cannot reopen " + path + ": " + e, e);
      }
    }
  }

  /**
   * Looks up {@code key}. Returns null when the component holds no entry for it; otherwise the
   * found entry's value, or {@link Lookup#ANTIMATTER} for a delete marker.
   */
  public Lookup get(byte[] key, long keyHash) {
    if (!bloom.mightContain(keyHash)) {
      return null;
    }
    if (Arrays.compareUnsigned(key, meta.minKey()) < 0
        || Arrays.compareUnsigned(key, meta.maxKey()) > 0) {
      return null;
    }
    long off = meta.rootOffset();
    int len = meta.rootLength();
    for (int level = meta.treeHeight(); level > 1; level--) {
      Page p = page(off, len, PageType.INTERIOR);
      int i = p.childIndexFor(key);
      off = p.childOffset(i);
      len = p.childLength(i);
    }
    Page leaf = page(off, len, PageType.LEAF);
    int i = leaf.lowerBound(key);
    if (i < leaf.count() && leaf.compareKey(i, key) == 0) {
      if (leaf.isAntimatter(i)) {
        return Lookup.ANTIMATTER;
      }
      byte[] v = resolve(key, leaf.value(i));
      return v == null ? Lookup.ANTIMATTER : new Lookup(v);
    }
    return null;
  }

  /** The result of a point lookup in one component. */
  public record Lookup(byte[] value) {
    /** The key is deleted here. */
    public static final Lookup ANTIMATTER = new Lookup(null);

    public boolean isAntimatter() {
      return value == null;
    }
  }

  /**
   * A cursor over keys in [{@code from}, {@code to}] (either bound null for open), through the page
   * cache. The caller must hold a reference for the cursor's lifetime.
   */
  public EntryCursor cursor(byte[] from, byte[] to) {
    return new TreeCursor(this, from, to);
  }

  /** Sequential scan of all leaves, bypassing the cache, into a buffer of its own. */
  public SequentialLeafScanner sequentialScan() {
    return sequentialScan(new ReadAheadBuffer());
  }

  /**
   * Sequential scan of all leaves, bypassing the cache, reading into {@code readAhead}: what merges
   * read. No other scanner may use {@code readAhead} until this one is closed.
   */
  public SequentialLeafScanner sequentialScan(ReadAheadBuffer readAhead) {
    return new SequentialLeafScanner(this, readAhead);
  }

  ReadableFile channel() {
    return channel;
  }

  /** Reads and checks a page without the cache (for verification). */
  Page readUncached(long offset, int length, PageType type) {
    return PageCodec.decode(read(offset, length), 0, length, type, path, offset);
  }

  @Override
  public String toString() {
    return path.getFileName() + "[" + meta.minComponentId() + "-" + meta.maxComponentId() + "]";
  }
}
