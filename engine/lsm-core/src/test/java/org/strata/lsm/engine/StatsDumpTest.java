package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.LevelMerges;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.StatsConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.metrics.CompactionStatsTable;
import org.strata.lsm.testing.TestStores;

/**
 * The periodic statistics dump ({@code stats.dump-interval}) and the per-level merge totals it
 * shows: the dump is the table of the engine's own statistics, written at the first flush after
 * the interval; the per-level totals agree with the merges the store ran and survive a reopen.
 */
class StatsDumpTest {
  @TempDir Path tmp;

  /** The system clock, moved forward on request: intervals pass without waiting. */
  static final class SteppedClock implements Clock {
    final AtomicLong offset = new AtomicLong();

    @Override
    public long nanoTime() {
      return System.nanoTime() + offset.get();
    }

    @Override
    public long currentTimeMillis() {
      return System.currentTimeMillis() + offset.get() / 1_000_000;
    }

    @Override
    public void sleepNanos(long nanos) throws InterruptedException {
      Clock.system().sleepNanos(nanos);
    }
  }

  /** Captures the tree logger's dumps. */
  static final class Dumps extends AbstractAppender {
    final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

    Dumps() {
      super("dumps", null, null, true, Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent e) {
      String m = e.getMessage().getFormattedMessage();
      if (e.getLevel() == Level.INFO && m.startsWith("compaction stats of ")) {
        seen.add(m);
      }
    }
  }

  private static void put(LsmStore s, int from, int to) {
    byte[] v = new byte[100];
    for (int i = from; i < to; i++) {
      s.put(String.format("k%07d", i).getBytes(StandardCharsets.US_ASCII), v);
    }
  }

  @Test
  void aDumpIsTheTableOfTheEnginesStatisticsAtTheFirstFlushAfterTheInterval() {
    SteppedClock clock = new SteppedClock();
    // memory components large enough that only the explicit flushes flush
    StoreConfig c = TestStores.smallConfig(100).withStats(new StatsConfig(60))
        .withMemoryComponent(org.strata.lsm.config.MemoryComponentConfig.of(1 << 20, 2));
    Dumps dumps = new Dumps();
    dumps.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(LsmTree.class);
    logger.addAppender(dumps);
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO); // the tests' configuration shows warnings only
    try (LsmStore s = LsmStore.open(tmp.resolve("db"), c,
        new StoreEnvironment(clock, StoreEnvironment.standard().fileIo()))) {
      put(s, 0, 1000);
      s.flush();
      assertThat(dumps.seen).as("the interval has not passed").isEmpty();
      clock.offset.addAndGet(61_000_000_000L);
      put(s, 1000, 2000);
      s.flush();
      assertThat(dumps.seen).hasSize(1);
      // no merge runs under this policy below 100 components: the figures are still those
      StoreStats st = s.stats();
      String table = CompactionStatsTable.of(st, s.runs());
      assertThat(dumps.seen.get(0)).endsWith(table);
      String flushRow = table.lines().filter(l -> l.startsWith("flush")).findFirst().orElseThrow();
      assertThat(flushRow.trim().split("\\s+")).containsSequence(
          String.format(Locale.ROOT, "%.1f", st.bytesFlushed() / (double) (1 << 20)));
      assertThat(flushRow.trim().split("\\s+")[7]).isEqualTo(Long.toString(st.flushes()));
      String sumRow = table.lines().filter(l -> l.startsWith("sum")).findFirst().orElseThrow();
      assertThat(sumRow.trim().split("\\s+")[2]).isEqualTo(Integer.toString(st.diskComponents()));
      put(s, 2000, 3000);
      s.flush();
      assertThat(dumps.seen).as("the interval started again").hasSize(1);
    } finally {
      logger.setLevel(level);
      logger.removeAppender(dumps);
    }
  }

  @Test
  void mergesByLevelAgreeWithTheMergesRunAndSurviveAReopen() {
    Path dir = tmp.resolve("merged");
    StoreConfig c = LsmTreeModelTest.config(3, 1 << 20);
    Map<Integer, LevelMerges> before;
    try (LsmStore s = LsmStore.open(dir, c, StoreEnvironment.standard())) {
      for (int round = 0; round < 6; round++) {
        put(s, round * 300, round * 300 + 300);
        s.flush();
      }
      s.compact();
      StoreStats st = s.stats();
      Map<Integer, Long> ok = st.mergeLog().stream().filter(r -> r.outcome().equals("ok"))
          .collect(Collectors.groupingBy(MergeRecord::outputLevel, Collectors.counting()));
      assertThat(st.mergesByLevel()).isNotEmpty();
      st.mergesByLevel().forEach((level, m) -> {
        assertThat(m.merges()).as("merges into level %d", level).isEqualTo(ok.get(level));
        assertThat(m.bytesWritten()).isEqualTo(st.bytes().mergeBytesByLevel().get(level));
        assertThat(m.bytesRead()).isPositive();
      });
      assertThat(st.mergesByLevel().values().stream().mapToLong(LevelMerges::merges).sum())
          .isEqualTo(st.merges());
      before = st.mergesByLevel();
    }
    try (LsmStore s = LsmStore.open(dir, c, StoreEnvironment.standard())) {
      assertThat(s.stats().mergesByLevel()).isEqualTo(before);
    }
  }
}
