package org.strata.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.component.PageCache;

/**
 * A point lookup of an existing key in one real disk component file (100,000 entries of 20-byte
 * keys and 100-byte values, about 13 MB, a three-level B+-tree) through the {@link PageCache}:
 * {@code hit}, every page of the file is cached (warmed by a full scan); {@code miss}, the cache
 * has no room, so every page on the root-to-leaf path is read from the file with a positioned
 * read, CRC32C-checked and decoded. The file was just written, so a miss reads from the operating
 * system's page cache, not from the device: it measures the system call, the copy, the checksum
 * and the decode, not an SSD read. {@code invalidateOtherFile}: dropping the pages of a deleted
 * file that has none cached while the cache holds the whole component (what a merge does when it
 * deletes its inputs).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class PageCacheBench {
  static final int ENTRIES = 100_000;
  static final int PROBES = 1 << 14;

  /** {@code hit}: all pages cached; {@code miss}: a cache of size 0. */
  @Param({"hit", "miss"})
  public String cache;

  private TempDir dir;
  private PageCache pageCache;
  private DiskComponent component;
  private byte[][] probeKeys;
  private long[] probeHashes;
  private int next;
  private long otherFile = Long.MAX_VALUE;

  @Setup(Level.Trial)
  public void setUp() {
    boolean hit = switch (cache) {
      case "hit" -> true;
      case "miss" -> false;
      default -> throw new IllegalArgumentException("cache must be hit or miss, not " + cache);
    };
    dir = TempDir.create("pagecache");
    try {
      pageCache = new PageCache(hit ? 256L << 20 : 0);
      byte[][] sorted = BenchData.sortedKeys(0, ENTRIES);
      component = BenchComponentLoader.write(dir.path().resolve("c.cmp"), 1, sorted,
          BenchData.values(64, 100, 4), pageCache);
      if (hit) {
        int n = 0;
        try (EntryCursor c = component.cursor(null, null)) {
          while (c.next()) {
            n++;
          }
        }
        if (n != ENTRIES) {
          throw new IllegalStateException("the warming scan saw " + n + " entries, not " + ENTRIES);
        }
      }
      SplittableRandom r = new SplittableRandom(5);
      probeKeys = new byte[PROBES][];
      probeHashes = new long[PROBES];
      for (int i = 0; i < PROBES; i++) {
        probeKeys[i] = sorted[r.nextInt(ENTRIES)];
        probeHashes[i] = KeyHash.hash64(probeKeys[i]);
        if (component.get(probeKeys[i], probeHashes[i]) == null) {
          throw new IllegalStateException("a key of the component was not found");
        }
      }
      long missesBefore = pageCache.misses();
      component.get(probeKeys[0], probeHashes[0]);
      long misses = pageCache.misses() - missesBefore;
      if (misses != (hit ? 0 : component.meta().treeHeight())) {
        throw new IllegalStateException("a " + cache + " lookup missed the cache " + misses
            + " times in a tree of height " + component.meta().treeHeight());
      }
    } catch (RuntimeException e) {
      tearDown(); // JMH does not tear down a state whose setup failed
      throw e;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      if (component != null) {
        component.release();
      }
    } finally {
      dir.close();
    }
  }

  /** Looks up one existing key: Bloom filter, then root to leaf through the page cache. */
  @Benchmark
  public DiskComponent.Lookup lookup() {
    int i = next;
    next = (next + 1) & (PROBES - 1);
    return component.get(probeKeys[i], probeHashes[i]);
  }

  @Benchmark
  public long invalidateOtherFile() {
    pageCache.invalidate(otherFile--); // a new id each time: no page of it is ever cached
    return pageCache.hits();
  }
}
