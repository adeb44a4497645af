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
  }
}
