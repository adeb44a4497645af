package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FeedLimitsTest {
  @Test
  void defaultsAreTheDocumentedOnes() {
    FeedLimits d = FeedLimits.defaults();
    assertThat(d.maxLineBytes()).isEqualTo(17 << 20);
    assertThat(d.waitingLines()).isEqualTo(1024);
    assertThat(d.waitingLineBytes()).isEqualTo(4L << 20);
    assertThat(d.replyBytesPerConnection()).isEqualTo(1L << 20);
    assertThat(d.replyBytesTotal()).isEqualTo(64L << 20);
    assertThat(d.maxConnections()).isEqualTo(1024);
    assertThat(d.replyChunkBytes()).isEqualTo(16 << 10);
    assertThat(d.withReplyBytes(4096, 4096).replyChunkBytes()).isEqualTo(1024);
    assertThat(d.maxBufferedBytes()).isEqualTo(128L << 20);
    // Half the reply total is every connection's own: 32 KiB each; the other 32 MiB shared.
    assertThat(d.replyShareBytes()).isEqualTo(32 << 10);
    assertThat(d.replySharedBytes()).isEqualTo(32L << 20);
    // Request lines: 32 KiB each of 1,024 connections, and 5 slots of one 17 MiB line.
    assertThat(d.inputSlotBytes()).isEqualTo((17L << 20) + (16 << 10));
    assertThat(d.inputSlots()).isEqualTo(5);
    assertThat(1024L * FeedLimits.INPUT_SHARE_BYTES + d.inputSlots() * d.inputSlotBytes())
        .isLessThanOrEqualTo(d.maxBufferedBytes());
  }

  @Test
  void theTotalForRequestLinesFollowsTheOtherLimitsUnlessSet() {
    FeedLimits d = FeedLimits.defaults();
    assertThat(d.withMaxConnections(4096).maxBufferedBytes())
        .isEqualTo(4096L * (32 << 10) + (17 << 20) + (16 << 10));
    assertThat(d.withMaxLineBytes(1 << 20).maxBufferedBytes()).isEqualTo(128L << 20);
    assertThat(d.withMaxLineBytes(1 << 20).inputSlots()).isEqualTo(94);
    assertThat(d.withMaxBufferedBytes(64L << 20).withMaxLineBytes(1 << 20).maxBufferedBytes())
        .isEqualTo(64L << 20);
    assertThatThrownBy(() -> d.withMaxBufferedBytes(40L << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("feed limit maxBufferedBytes is 41943040; allowed: at least 51396608 (32768"
            + " per connection for maxConnections 1024, plus one line of maxLineBytes 17825792"
            + " and one read of 16384)");
  }

  @Test
  void badLimitsAreRefusedNamingTheLimitAndWhatIsAllowed() {
    assertThatThrownBy(() -> FeedLimits.defaults().withReplyBytes(1000, 1 << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("feed limit replyBytesPerConnection is 1000; allowed: at least 4096");
    assertThatThrownBy(() -> FeedLimits.defaults().withReplyBytes(1 << 20, 1 << 19))
        .hasMessage("feed limit replyBytesTotal is 524288; allowed: at least"
            + " replyBytesPerConnection (1048576)");
    assertThatThrownBy(() -> FeedLimits.defaults().withWaiting(0, 10))
        .hasMessageContaining("waitingLines is 0");
    assertThatThrownBy(() -> new FeedLimits(10, 1, 1, 4096, 4096, 1))
        .hasMessageContaining("maxLineBytes is 10");
    assertThatThrownBy(() -> FeedLimits.defaults().withMaxConnections(0))
        .hasMessage("feed limit maxConnections is 0; allowed: at least 1");
    assertThatThrownBy(() -> FeedLimits.defaults().withReplyBytes(4096, 4096)
        .withMaxConnections(4096))
        .hasMessage("feed limit replyBytesTotal is 4096; allowed: at least 2 per connection"
            + " (8192 for maxConnections 4096): half of it is each connection's own room");
  }
}
