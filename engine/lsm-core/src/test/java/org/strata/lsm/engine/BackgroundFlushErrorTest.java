package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FileOp;
import org.strata.lsm.testing.TestStores;

/**
 * A flush that fails in the background (no {@code flush()} caller waits for it) becomes the sticky
 * background error: the next write fails naming the cause, {@code stats} shows it, it is logged
 * once, and it is not retried until {@code flush()} retries it.
 */
class BackgroundFlushErrorTest {
  @TempDir Path tmp;

  /** Writes until a write fails; the loop is bounded so a missing failure is a test failure. */
  private static StorageException writeUntilRefused(Runnable[] write) {
    for (int i = 0; i < 200_000; i++) {
      try {
        write[0].run();
      } catch (StorageException e) {
        return e;
      }
    }
    return fail("no write failed although the background flush failed");
  }

  @Test
  void theNextWriteAndStatsSeeTheErrorAndNothingRetriesItUntilFlush() throws Exception {
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    AtomicInteger flushFiles = new AtomicInteger();
    io.onWrite((p, n) -> {
      if (p.getFileName().toString().endsWith(".cmp.tmp")) {
        flushFiles.incrementAndGet();
      }
    });
    List<LogEvent> errors = new CopyOnWriteArrayList<>();
    AbstractAppender capture = new AbstractAppender("bg", null, null, true,
        Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent e) {
        if (e.getLevel().isMoreSpecificThan(Level.ERROR)) {
          errors.add(e.toImmutable());
        }
      }
    };
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(LsmTree.class);
    logger.addAppender(capture);
    Path dir = tmp.resolve("s");
    int[] next = {0};
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(8192, 3)),
            new StoreEnvironment(Clock.system(), io))) {
      // The first flush fails; a retry would succeed.
      io.failNext(FileOp.WRITE, ".cmp.tmp", 1, "injected");
      Runnable[] put = {() -> {
        store.put(b("key" + next[0]), b("value" + next[0]));
        next[0]++;
      }};
      StorageException e = writeUntilRefused(put);
      assertThat(e).hasMessageContaining("background flush failed")
          .hasMessageContaining("injected");
      assertThat(store.stats().backgroundError()).contains("injected");
      assertThat(store.stats().flushes()).isZero();
      int attempts = flushFiles.get();
      // Sticky: every later write fails the same way, and no flush ran meanwhile.
      for (int i = 0; i < 20; i++) {
        assertThatThrownBy(() -> store.put(b("later"), b("x")))
            .isInstanceOf(StorageException.class).hasMessageContaining("injected");
      }
      assertThat(store.stats().backgroundError()).contains("injected");
      assertThat(store.stats().flushes()).isZero();
      assertThat(flushFiles.get()).as("no flush was retried behind the writers' backs")
          .isEqualTo(attempts);
      assertThat(errors.stream().filter(ev -> ev.getMessage().getFormattedMessage()
          .startsWith("flush of")).toList()).as("logged once").hasSize(1);
      // What was written stays readable.
      for (int i = 0; i < next[0]; i++) {
        assertThat(store.get(b("key" + i))).isPresent();
      }
      // flush() retries, succeeds, and clears the error.
      store.flush();
      assertThat(store.stats().backgroundError()).isNull();
      assertThat(store.stats().flushes()).isPositive();
      store.put(b("after"), b("ok"));
      assertThat(store.get(b("after"))).isPresent();
    } finally {
      logger.removeAppender(capture);
    }
    try (LsmStore store = LsmStore.open(dir, null)) {
      for (int i = 0; i < next[0]; i++) {
        assertThat(store.get(b("key" + i))).as("key%d", i).isPresent();
      }
    }
  }

  /**
   * The sticky error stops the very next write, though the active memory component has room: a
   * writer must not get past it on the admission's lock-free path ({@link WriteGate#admit}).
   */
  @Test
  void theStickyErrorStopsTheNextWriteWhileMemoryHasRoom() throws Exception {
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    try (LsmStore store = LsmStore.open(tmp.resolve("room"), TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(8192, 3)),
            new StoreEnvironment(Clock.system(), io))) {
      io.failNext(FileOp.WRITE, ".cmp.tmp", 1, "injected");
      // Until the first flush has tried to write (and failed): the component it flushes was
      // sealed, so the active one now holds only the few writes made since.
      for (int i = 0; i < 200_000 && io.injected() == 0; i++) {
        try {
          store.put(b("key" + i), b("value" + i));
        } catch (StorageException e) {
          break; // the error became sticky already
        }
      }
      assertThat(io.injected()).as("a flush ran and failed").isPositive();
      for (int i = 0; i < 10_000 && store.stats().backgroundError() == null; i++) {
        Thread.sleep(1);
      }
      assertThat(store.stats().backgroundError()).contains("injected");
      assertThatThrownBy(() -> store.put(b("next"), b("x"))).isInstanceOf(StorageException.class)
          .hasMessageContaining("background flush failed").hasMessageContaining("injected");
    }
  }

  @Test
  void aMemberTreesBackgroundErrorStopsTheWritesOfItsPartition() {
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    Path dir = tmp.resolve("group");
    try (TreeGroup g = TreeGroup.open(dir, List.of(
        new TreeGroup.Member("a",
            TestStores.smallConfig(100).withMemoryComponent(MemoryComponentConfig.of(8192, 3))),
        new TreeGroup.Member("b",
            TestStores.smallConfig(100).withMemoryComponent(MemoryComponentConfig.of(8192, 3)))),
        8192, TestStores.smallConfig(100), new IoThrottle(0, Clock.system()),
        new StoreEnvironment(Clock.system(), io))) {
      io.failNext(FileOp.WRITE, ".cmp.tmp", 1, "injected");
      int[] next = {0};
      Runnable[] write = {() -> {
        g.write(List.of(new TreeGroup.Op(0, b("k" + next[0]), b("v")),
            new TreeGroup.Op(1, b("k" + next[0]), b("v"))));
        next[0]++;
      }};
      StorageException e = writeUntilRefused(write);
      assertThat(e).hasMessageContaining("background flush").hasMessageContaining("injected");
      assertThatThrownBy(() -> g.write(List.of(new TreeGroup.Op(0, b("x"), b("y")))))
          .isInstanceOf(StorageException.class).hasMessageContaining("injected");
      assertThat(g.trees()).anySatisfy(t ->
          assertThat(t.stats().backgroundError()).contains("injected"));
      g.flush();
      g.write(List.of(new TreeGroup.Op(0, b("after"), b("ok"))));
      assertThat(g.tree(0).get(b("after"))).isPresent();
      for (int i = 0; i < next[0]; i++) {
        assertThat(g.tree(1).get(b("k" + i))).isPresent();
      }
    }
  }

  /**
   * A flush whose component is installed and whose manifest then fails: the flush reports the
   * error, and a later flush or close (whose newest sealed component is that one) does not wait
   * for a flush that will not come. Before the fix, close waited forever. Nothing is lost.
   */
  @Test
  void aFlushWhoseManifestFailsAfterInstallingDoesNotHangTheNextFlushOrClose() {
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    Path dir = tmp.resolve("m");
    LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2)),
        new StoreEnvironment(Clock.system(), io));
    for (int i = 0; i < 100; i++) {
      store.put(b("key" + i), b("value" + i));
    }
    io.failNth(FileOp.RENAME, org.strata.lsm.testing.FileKind.MANIFEST_TMP, 1,
        FaultInjectingFileIo.Failure.ERROR);
    assertThatThrownBy(store::flush).isInstanceOf(StorageException.class)
        .hasMessageContaining("flush of");
    io.heal();
    assertThat(store.get(b("key7"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(
        b("value7")));
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
        () -> {
          assertThatThrownBy(store::flush).isInstanceOf(StorageException.class);
          store.close();
        }, "flush and close after a failed manifest");
    try (LsmStore again = LsmStore.open(dir, null, StoreEnvironment.standard())) {
      for (int i = 0; i < 100; i++) {
        assertThat(again.get(b("key" + i))).as("key%d", i).isPresent();
      }
    }
  }
}
