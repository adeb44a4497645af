package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.asterix.common.api.IDiskWriteRateLimiterProvider;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.hyracks.storage.common.buffercache.IRateLimiter;
import org.junit.jupiter.api.Test;
import org.strata.lsm.io.Clock;

/**
 * Strata's budget as AsterixDB's rate limiter: one limiter for every index of the node, pages on
 * a flush's thread counted as a flush's, and the application context's view that hands it out
 * while every other call reaches AsterixDB's context.
 */
class StrataRateLimiterProviderTest {
  @Test
  void everyIndexSharesOneLimiterAndFlushThreadsGoFirst() throws Exception {
    Set<Thread> flushing = ConcurrentHashMap.newKeySet();
    StrataRateLimiterProvider p = new StrataRateLimiterProvider(1L << 40, Clock.system(),
        flushing::contains);
    IRateLimiter a = p.getRateLimiter(null, null);
    assertThat(p.getRateLimiter(null, null)).isSameAs(a);
    a.request(4096); // a merge's page: this thread runs no flush
    Thread flush = new Thread(() -> {
      flushing.add(Thread.currentThread());
      try {
        a.request(8192);
        a.request(8192);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    flush.start();
    flush.join();
    a.setRate(1); // AsterixDB's own rate: the node's budget stays Strata's
    a.request(4096);
    assertThat(p.counters().flushBytesAdmitted()).isEqualTo(16384);
    assertThat(p.counters().mergeBytesAdmitted()).isEqualTo(8192);
    assertThat(p.bytesPerSecond()).isEqualTo(1L << 40);
  }

  @Test
  void theContextsViewHandsOutStrataLimitersAndPassesEverythingElseOn() {
    List<String> calls = new ArrayList<>();
    IDiskWriteRateLimiterProvider theirs = (ctx, r) -> null;
    INcApplicationContext real = (INcApplicationContext) Proxy.newProxyInstance(
        INcApplicationContext.class.getClassLoader(), new Class<?>[] {INcApplicationContext.class},
        (proxy, m, args) -> {
          calls.add(m.getName());
          if (m.getName().equals("getDiskWriteRateLimiterProvider")) {
            return theirs;
          }
          if (m.getName().equals("isShuttingdown")) {
            return true;
          }
          return null;
        });
    StrataRateLimiterProvider ours = new StrataRateLimiterProvider(1 << 20, Clock.system(),
        t -> false);
    INcApplicationContext view = BudgetedContext.wrap(real, ours);
    assertThat(view.getDiskWriteRateLimiterProvider()).isSameAs(ours);
    assertThat(view.isShuttingdown()).isTrue();
    assertThat(calls).containsExactly("isShuttingdown");
    assertThat(real.getDiskWriteRateLimiterProvider()).isSameAs(theirs);
  }
}
