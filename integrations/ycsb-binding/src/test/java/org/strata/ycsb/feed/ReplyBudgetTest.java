package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReplyBudgetTest {
  private final FeedStats stats = new FeedStats();
  // 1,000 bytes per connection at most, 10 of each connection's own, 100 shared.
  private final ReplyBudget budget = new ReplyBudget(1000, 10, 100, stats);

  @Test
  void connectionsThatDoNotReadCannotTakeAnotherConnectionsOwnRoom() throws Exception {
    ReplyBudget.Account slow = budget.open(() -> { });
    ReplyBudget.Account other = budget.open(() -> { });
    ReplyBudget.Account reader = budget.open(() -> { });
    assertThat(budget.reserve(slow, 80)).isEqualTo(80);
    assertThat(budget.reserve(other, 40)).isEqualTo(40); // 10 its own, 30 shared: all gone
    // The slow connection's next chunk does not fit: it waits (its client never reads).
    CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(
        () -> budget.reserve(slow, 50));
    for (int i = 0; i < 1000 && stats.waitingForReplyRoom.get() == 0; i++) {
      Thread.sleep(5); // bounded wait until it waits
    }
    assertThat(stats.waitingForReplyRoom.get()).isEqualTo(1);
    // A reader with nothing unsent still gets its own room: a chunk bigger than that goes in
    // pieces of what is free for it.
    assertThat(budget.reserve(reader, 500)).isEqualTo(10);
    budget.release(reader, 10);
    assertThat(budget.reserve(reader, 7)).isEqualTo(7);
    budget.release(reader, 7);
    assertThat(stats.maxUnsentReplyBytes.get()).isLessThanOrEqualTo(3 * 10 + 100);
    budget.close(slow); // the slow client leaves: its waiting worker gives up
    assertThat(waiting.get(60, TimeUnit.SECONDS)).isZero();
    budget.release(slow, 80);
    budget.release(other, 40);
    assertThat(budget.reserve(reader, 110)).as("everything free again").isEqualTo(110);
    assertThat(stats.unsentReplyBytes.get()).isEqualTo(110);
  }
}
