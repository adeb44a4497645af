package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.strata.ycsb.feed.FeedStats;

class FeedServerCommandTest {
  @Test
  void theCounterLineShowsTheReplyBuffers() {
    FeedStats.Snapshot s = new FeedStats.Snapshot(3, 100, 60, 10, 20, 5, 1, 4, 6, 7, 700, 12_345,
        1_048_576, 1_000_000, 9, 2, 1, 2, 8, 1, 40_000, 50_000, 3, 2, 5);
    assertThat(FeedServerCommand.describe(s)).isEqualTo("3 connections, 100 lines: 70 applied"
        + " (60 upserts, 10 deletes), 20 reads, 5 rejected, 1 failed, 4 dropped at stop, 6"
        + " waiting; unsent"
        + " replies 12345 bytes (max 1048576, one connection max 1000000), 2 waiting for slow"
        + " clients, 1 not reading; 2 open, 8 refused, 1 closed for a too long line, 5 ended"
        + " by their client; request lines held 40000 bytes (max 50000), 2 connections waiting"
        + " for room");
  }
}
