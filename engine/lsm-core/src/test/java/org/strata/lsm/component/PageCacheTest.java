package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The page cache's bound, its eviction and the dropping of a deleted file's pages. */
class PageCacheTest {
  private static Page page(int bytes) {
    return new Page(PageType.LEAF, new byte[bytes]); // count 0: an empty leaf
  }

  @Test
  void invalidatingAFileDropsExactlyItsPages() {
    PageCache cache = new PageCache(1 << 20);
    for (int i = 0; i < 50; i++) {
      cache.put(1, i * 4096L, page(1000));
      cache.put(2, i * 4096L, page(1000));
    }
    long before = cache.sizeBytes();
    assertThat(cache.pages()).isEqualTo(100);
    cache.invalidate(1);
    assertThat(cache.pages()).isEqualTo(50);
    assertThat(cache.sizeBytes()).isEqualTo(before - 50L * page(1000).weight());
    for (int i = 0; i < 50; i++) {
      assertThat(cache.get(1, i * 4096L)).isNull();
      assertThat(cache.get(2, i * 4096L)).isNotNull();
    }
    cache.invalidate(2);
    assertThat(cache.pages()).isZero();
    assertThat(cache.sizeBytes()).isZero();
    assertThat(cache.fileEntries()).as("no file is remembered without pages").isZero();
    cache.invalidate(3); // a file never cached
    assertThat(cache.pages()).isZero();
  }

  /**
   * Random puts, replacements, evictions and invalidations: the cache stays within its bound and
   * its byte count and per-file index agree with the pages it holds.
   */
  @Test
  void evictionsAndInvalidationsKeepTheCountsExact() {
    PageCache cache = new PageCache(64 * 1024);
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      long file = r.nextInt(20);
      if (r.nextInt(50) == 0) {
        cache.invalidate(file);
        for (int o = 0; o < 40; o++) {
          assertThat(cache.get(file, o * 4096L)).isNull();
        }
      } else {
        cache.put(file, r.nextInt(40) * 4096L, page(200 + r.nextInt(800)));
      }
    }
    assertThat(cache.sizeBytes()).isLessThanOrEqualTo(64 * 1024);
    for (long f = 0; f < 20; f++) {
      cache.invalidate(f);
    }
    assertThat(cache.pages()).isZero();
    assertThat(cache.sizeBytes()).as("every page's weight was taken off exactly once").isZero();
    assertThat(cache.fileEntries()).isZero();
  }
}
