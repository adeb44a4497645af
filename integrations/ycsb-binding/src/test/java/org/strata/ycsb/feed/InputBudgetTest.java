package org.strata.ycsb.feed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InputBudgetTest {
  private static final int READ = 100;
  private static final int SHARE = 200;
  private static final long SLOT = 1000 + READ; // lines of up to 1,000 bytes

  private final FeedStats stats = new FeedStats();
  private final InputBudget budget = new InputBudget(SHARE, SLOT, 2, READ, stats);

  /** A connection as the budget sees it: bytes of its partial line and of its waiting lines. */
  private final class Conn {
    final AtomicLong partial = new AtomicLong();
    final AtomicLong waiting = new AtomicLong();
    final AtomicInteger woken = new AtomicInteger();
    final InputBudget.Account account = budget.open(() -> partial.get() + waiting.get(),
        partial::get, woken::incrementAndGet);

    /** One read of {@code n} bytes of a line, if the budget lets it read; returns whether. */
    boolean read(int n) {
      if (!budget.reserveRead(account)) {
        return false;
      }
      partial.addAndGet(n);
      budget.readDone(account);
      return true;
    }

    /** The line ends and is applied. */
    void lineApplied() {
      waiting.addAndGet(partial.getAndSet(0));
      budget.readDone(account);
      waiting.set(0);
      budget.released(account);
    }
  }

  @Test
  void shortLinesAreAlwaysReadWhileSlotsHoldLongOnes() {
    List<Conn> longs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      longs.add(new Conn());
    }
    // Two long lines get the two slots and can finish; the third waits at its share.
    for (int step = 0; step < 9; step++) {
      for (Conn c : longs) {
        c.read(READ);
      }
    }
    assertThat(longs.get(0).partial.get()).isEqualTo(900);
    assertThat(longs.get(1).partial.get()).isEqualTo(900);
    assertThat(longs.get(2).partial.get()).as("its share")
        .isEqualTo(SHARE);
    assertThat(stats.waitingForBufferRoom.get()).isEqualTo(1);
    Conn shortLines = new Conn();
    for (int i = 0; i < 50; i++) {
      assertThat(shortLines.read(50)).isTrue();
      shortLines.lineApplied();
    }
    // The bound: every connection's share plus the slots.
    assertThat(stats.peakBufferedBytes.get()).isLessThanOrEqualTo(4 * SHARE + 2 * SLOT);
    // The first long line ends: its slot goes to the waiting one, which is woken.
    longs.get(0).lineApplied();
    assertThat(longs.get(2).woken.get()).isEqualTo(1);
    assertThat(stats.waitingForBufferRoom.get()).isZero();
    for (int step = 0; step < 8; step++) {
      assertThat(longs.get(2).read(READ)).isTrue();
    }
    assertThat(longs.get(2).partial.get()).isEqualTo(1000);
    assertThat(stats.peakBufferedBytes.get()).isLessThanOrEqualTo(4 * SHARE + 2 * SLOT);
  }

  @Test
  void aConnectionWithASlotStartsNoNewLongLineWhileOthersWait() {
    Conn a = new Conn();
    Conn b = new Conn();
    Conn c = new Conn();
    for (int step = 0; step < 5; step++) {
      a.read(READ);
      b.read(READ);
    }
    assertThat(c.read(READ)).isTrue(); // within its share
    assertThat(c.read(READ)).isTrue();
    assertThat(c.read(READ)).as("no slot left").isFalse();
    a.lineApplied(); // a's line done; it starts another long one while c waits: c goes first
    assertThat(c.woken.get()).isEqualTo(1);
    assertThat(a.read(READ)).isTrue(); // its share
    assertThat(a.read(READ)).isTrue();
    assertThat(a.read(READ)).as("no slot: c has it").isFalse();
    assertThat(c.read(READ)).isTrue();
    budget.close(b.account); // b gone; its partial line is not counted any more
    b.partial.set(0);
    budget.released(b.account);
    assertThat(a.woken.get()).isEqualTo(1);
    assertThat(stats.bufferedBytes.get()).as("a's line and read, c's line")
        .isEqualTo(a.partial.get() + READ + c.partial.get());
  }
}
