package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineFramerTest {
  private final List<String> lines = new ArrayList<>();

  private boolean take(LineFramer f, String text) {
    ByteBuf buf = Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
    try {
      return f.take(buf, b -> lines.add(new String(b, StandardCharsets.ISO_8859_1)));
    } finally {
      assertThat(buf.isReadable()).as("every byte taken").isFalse();
      buf.release();
    }
  }

  @Test
  void cutsLinesAtNewlinesDroppingACarriageReturnBeforeThem() {
    LineFramer f = new LineFramer(1024);
    assertThat(take(f, "a\nbc\r\n\n\r\nd\re\nf")).isTrue();
    assertThat(lines).containsExactly("a", "bc", "", "", "d\re");
    assertThat(f.partialBytes()).isEqualTo(1);
    assertThat(take(f, "gh\r")).isTrue();
    assertThat(f.partialBytes()).isEqualTo(4);
    assertThat(take(f, "\nij")).isTrue(); // the \r came in the read before
    assertThat(lines).endsWith("fgh");
    assertThat(f.partialBytes()).isEqualTo(2);
    f.discard();
    assertThat(f.partialBytes()).isZero();
    assertThat(take(f, "k\n")).isTrue();
    assertThat(lines).endsWith("k");
  }

  @Test
  void anyCutOfTheInputGivesTheSameLines() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    StringBuilder text = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String l = "x".repeat(rnd.nextInt(200)) + i;
      expected.add(l);
      text.append(l).append(rnd.nextBoolean() ? "\r\n" : "\n");
    }
    LineFramer f = new LineFramer(1024);
    for (int at = 0; at < text.length(); ) {
      int n = Math.min(text.length() - at, 1 + rnd.nextInt(300));
      assertThat(take(f, text.substring(at, at + n))).isTrue();
      at += n;
    }
    assertThat(lines).as("seed %d", seed).isEqualTo(expected);
    assertThat(f.partialBytes()).isZero();
  }

  @Test
  void aLineLongerThanTheLimitIsRefusedAsSoonAsItPassesIt() {
    LineFramer f = new LineFramer(1024);
    String max = "y".repeat(1024);
    assertThat(take(f, "ok\n" + max + "\r\n")).isTrue(); // exactly the limit, without \r\n
    assertThat(lines).containsExactly("ok", max);
    assertThat(take(f, "z".repeat(1000))).isTrue();
    assertThat(take(f, "z".repeat(24))).isTrue(); // 1,024 so far: still within
    assertThat(take(f, "zz\nafter\n")).as("1,026 bytes before the newline").isFalse();
    assertThat(lines).hasSize(2);
    assertThat(f.partialBytes()).as("the long line is not held").isZero();
    LineFramer g = new LineFramer(1024);
    assertThat(take(g, "a\n" + "w".repeat(1025))).as("no newline at all").isFalse();
    assertThat(lines).endsWith("a");
    assertThat(g.partialBytes()).isZero();
  }
}
