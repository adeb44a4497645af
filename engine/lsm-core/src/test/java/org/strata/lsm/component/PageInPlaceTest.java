package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.strata.lsm.CorruptionException;

/**
 * A page decoded in place, inside a larger array with other bytes around it (as the merge's leaf
 * scanner decodes from its read buffer), answers exactly as the same page decoded from an array of
 * its own; and its checksum still guards it.
 */
class PageInPlaceTest {
  private static final Path FILE = Path.of("in-place-test");

  /** A framed leaf page of random entries, some anti-matter; keys ascending. */
  private static byte[] leaf(SplittableRandom rnd, int entries) {
    PageBuilder b = new PageBuilder();
    for (int i = 0; i < entries; i++) {
      byte[] key = String.format("key%08d", i * 3 + rnd.nextInt(3)).getBytes();
      byte[] value = new byte[rnd.nextInt(200)];
      rnd.nextBytes(value);
      b.addLeaf(key, 0, key.length, value, 0, value.length, rnd.nextInt(5) == 0);
    }
    byte[] framed = new byte[b.encodedSize()];
    b.encodeTo(PageType.LEAF, framed, 0);
    return framed;
  }

  @Test
  void aPageInsideALargerArrayAnswersAsItsOwnCopy() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 50; round++) {
      byte[] framed = leaf(rnd, 1 + rnd.nextInt(40));
      int at = rnd.nextInt(100);
      byte[] buf = new byte[at + framed.length + rnd.nextInt(100)];
      rnd.nextBytes(buf); // other bytes on both sides
      System.arraycopy(framed, 0, buf, at, framed.length);
      Page own = PageCodec.decode(framed, 0, framed.length, PageType.LEAF, FILE, 0);
      Page inPlace = PageCodec.decode(buf, at, framed.length, PageType.LEAF, FILE, 0);
      assertThat(inPlace.count()).isEqualTo(own.count());
      for (int i = 0; i < own.count(); i++) {
        assertThat(inPlace.key(i)).isEqualTo(own.key(i));
        assertThat(inPlace.isAntimatter(i)).isEqualTo(own.isAntimatter(i));
        assertThat(inPlace.value(i)).isEqualTo(own.value(i));
        byte[] probe = own.key(i);
        assertThat(inPlace.lowerBound(probe)).isEqualTo(own.lowerBound(probe)).isEqualTo(i);
        assertThat(inPlace.compareKey(i, probe)).isZero();
      }
      byte[] past = "key99999999".getBytes();
      assertThat(inPlace.lowerBound(past)).isEqualTo(own.count());
      // The body bytes were not copied: the page reads the array it was given.
      assertThat(inPlace.weight()).isEqualTo(buf.length + 48);
    }
  }

  @Test
  void aFlippedBitInsideTheLargerArrayIsStillCaught() {
    byte[] framed = leaf(new SplittableRandom(3), 20);
    byte[] buf = new byte[framed.length + 64];
    System.arraycopy(framed, 0, buf, 32, framed.length);
    buf[32 + framed.length / 2] ^= 0x10;
    assertThatThrownBy(() -> PageCodec.decode(buf, 32, framed.length, PageType.LEAF, FILE, 4096))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("checksum");
    // Bytes outside the page do not matter.
    byte[] clean = new byte[framed.length + 64];
    System.arraycopy(framed, 0, clean, 32, framed.length);
    Arrays.fill(clean, 0, 32, (byte) 0x7f);
    assertThat(PageCodec.decode(clean, 32, framed.length, PageType.LEAF, FILE, 4096).count())
        .isEqualTo(20);
  }
}
