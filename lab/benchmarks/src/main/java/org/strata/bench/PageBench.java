package org.strata.bench;

import java.nio.file.Path;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.Warmup;
import org.strata.lsm.component.Page;
import org.strata.lsm.component.PageBuilder;
import org.strata.lsm.component.PageCodec;
import org.strata.lsm.component.PageType;

/**
 * One 4 KB leaf page: built from sorted 20-byte keys and values with {@link PageBuilder} and framed
 * with its CRC32C as a flush or merge writes it, and checked and decoded with {@link PageCodec} as
 * a page-cache miss reads it. With 100-byte values a page holds 31 entries, with 1 KB values
 * 3. Scores are per page.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class PageBench {
  static final int PAGE_SIZE = BenchComponentLoader.PAGE_SIZE;
  static final int KEYS = 1 << 14;
  static final int PAGES = 64;
  private static final Path NAME = Path.of("benchmark-page");

  /** Bytes of each value. */
  @Param({"100", "1000"})
  public int valueSize;

  private byte[][] keys;
  private byte[][] values;
  private int nextKey;
  private final PageBuilder builder = new PageBuilder();
  private byte[] out;
  private byte[][] encoded;
  private int nextPage;

  @Setup(Level.Trial)
  public void setUp() {
    keys = BenchData.sortedKeys(0, KEYS);
    values = BenchData.values(64, valueSize, 2);
    out = new byte[2 * PAGE_SIZE + valueSize];
    encoded = new byte[PAGES][];
    for (int i = 0; i < PAGES; i++) {
      int len = fillAndEncode();
      encoded[i] = Arrays.copyOf(out, len);
      Page p = PageCodec.decode(encoded[i], 0, len, PageType.LEAF, NAME, 0);
      if (p.count() < 1 || p.value(0).length != valueSize) {
        throw new IllegalStateException("a built page does not decode to its entries");
      }
    }
  }

  /** Fills the builder the way ComponentWriter does and frames the page; returns its length. */
  private int fillAndEncode() {
    while (true) {
      if (nextKey == KEYS) {
        nextKey = 0; // a new page starts over in key order
        if (!builder.isEmpty()) {
          break;
        }
      }
      byte[] k = keys[nextKey];
      byte[] v = values[nextKey & 63];
      int entry = PageBuilder.leafEntrySize(k.length, v.length, false);
      if (!builder.isEmpty() && builder.encodedSizeWith(entry) > PAGE_SIZE) {
        break;
      }
      builder.addLeaf(k, 0, k.length, v, 0, v.length, false);
      nextKey++;
    }
    int len = builder.encodedSize();
    builder.encodeTo(PageType.LEAF, out, 0);
    return len;
  }

  /** Builds one full leaf page and frames it with its CRC32C; returns its length. */
  @Benchmark
  public int buildLeafPage() {
    int len = fillAndEncode();
    return len + out[len - 1]; // the last byte of the CRC32C
  }

  /** Checks one leaf page's length, type and CRC32C and decodes it into a {@link Page}. */
  @Benchmark
  public Page decodeLeafPage() {
    byte[] page = encoded[nextPage];
    nextPage = (nextPage + 1) & (PAGES - 1);
    return PageCodec.decode(page, 0, page.length, PageType.LEAF, NAME, 0);
  }
}
