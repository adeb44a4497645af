package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FileOp;
import org.strata.lsm.testing.TestStores;

/** A failed write or force during a flush loses nothing and a later flush succeeds. */
class IoFaultTest {
  @TempDir Path tmp;

  /** Captures error events of the engine's logger. */
  static final class Capture extends AbstractAppender {
    final java.util.List<String> errors = new java.util.concurrent.CopyOnWriteArrayList<>();

    Capture() {
      super("capture", null, null, true, Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent e) {
      if (e.getLevel().isMoreSpecificThan(Level.ERROR)) {
        errors.add(e.getMessage().getFormattedMessage() + " / "
            + (e.getThrown() == null ? "" : e.getThrown().toString()));
      }
    }
  }

  private void checkFlushFault(boolean failForce) throws Exception {
    Path dir = tmp.resolve(failForce ? "force" : "write");
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    Capture capture = new Capture();
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(LsmTree.class);
    logger.addAppender(capture);
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2)),
            new StoreEnvironment(Clock.system(), io))) {
      for (int i = 0; i < 500; i++) {
        store.put(b("k" + i), b("v" + i));
      }
      if (failForce) {
        io.failNext(FileOp.FORCE, ".cmp.tmp", 1, "injected");
      } else {
        io.failNext(FileOp.WRITE, ".cmp.tmp", 1, "injected");
      }
      assertThatThrownBy(store::flush).isInstanceOf(StorageException.class)
          .hasMessageContaining("injected");
      assertThat(capture.errors).anySatisfy(e -> assertThat(e).contains("flush").contains(
          "injected"));
      // Still readable from the memory component; no component and no temporary file remain.
      for (int i = 0; i < 500; i++) {
        assertThat(store.get(b("k" + i)).map(org.strata.lsm.testing.TestStores::s))
            .contains("v" + i);
      }
      assertThat(store.stats().diskComponents()).isZero();
      try (Stream<Path> s = Files.list(dir)) {
        assertThat(s.map(p -> p.getFileName().toString()))
            .noneMatch(n -> n.endsWith(".cmp") || n.endsWith(".tmp"));
      }
      store.put(b("after"), b("fault"));
      store.flush(); // the retry succeeds: the failed component, then the one holding "after"
      assertThat(store.stats().diskComponents()).isEqualTo(2);
      assertThat(store.stats().flushes()).isEqualTo(2);
      assertThat(store.stats().memoryEntries()).isZero();
    } finally {
      logger.removeAppender(capture);
    }
    try (LsmStore store = LsmStore.open(dir, null)) {
      assertThat(store.get(b("k499")).map(org.strata.lsm.testing.TestStores::s)).contains("v499");
      assertThat(store.get(b("after"))).isPresent();
    }
    assertThat(StoreVerifier.verify(dir).ok()).isTrue();
  }

  @Test
  void failedWriteDuringFlush() throws Exception {
    checkFlushFault(false);
  }

  @Test
  void failedForceDuringFlush() throws Exception {
    checkFlushFault(true);
  }

  @Test
  void writersSeeTheErrorWhenMemoryIsFullAndFlushesFail() throws Exception {
    Path dir = tmp.resolve("full");
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    io.failNext(FileOp.WRITE, ".cmp.tmp", Integer.MAX_VALUE, "injected");
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(8192, 2)),
            new StoreEnvironment(Clock.system(), io))) {
      assertThatThrownBy(() -> {
        for (int i = 0; i < 100_000; i++) {
          store.put(b("key" + i), b("value" + i));
        }
      }).isInstanceOf(StorageException.class).hasMessageContaining("flush failed");
      io.failNext(FileOp.WRITE, ".cmp.tmp", 0, "injected");
      store.flush();
      store.put(b("again"), b("ok"));
      assertThat(store.get(b("key0"))).isPresent();
    }
  }

  @Test
  void mergeFailureKeepsInputsAndAnotherMergeSucceeds() throws Exception {
    Path dir = tmp.resolve("merge");
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100),
        new StoreEnvironment(Clock.system(), io))) {
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 200; i++) {
          store.put(b("k" + i), b("v" + round + "-" + i));
        }
        store.flush();
      }
      io.failNext(FileOp.WRITE, ".cmp.tmp", 1, "injected");
      store.compact();
      assertThat(store.stats().diskComponents()).isEqualTo(3);
      assertThat(store.stats().mergeLog()).anySatisfy(r ->
          assertThat(r.outcome()).startsWith("failed"));
      store.compact();
      assertThat(store.stats().diskComponents()).isEqualTo(1);
      assertThat(store.get(b("k7")).map(org.strata.lsm.testing.TestStores::s)).contains("v2-7");
    }
    assertThat(StoreVerifier.verify(dir).ok()).isTrue();
  }

  @Test
  void aFlushThatKeepsFailingLogsOneStackTraceAndCountsTheRetries() throws Exception {
    Path dir = tmp.resolve("full-disk");
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    java.util.List<LogEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    AbstractAppender capture = new AbstractAppender("all", null, null, true,
        Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent e) {
        events.add(e.toImmutable());
      }
    };
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(LsmTree.class);
    logger.addAppender(capture);
    Level level = logger.getLevel();
    logger.setLevel(Level.WARN);
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2)),
            new StoreEnvironment(Clock.system(), io))) {
      store.put(b("k"), b("v"));
      io.failNext(FileOp.WRITE, ".cmp.tmp", 6, "No space left on device");
      for (int attempt = 1; attempt <= 6; attempt++) {
        assertThatThrownBy(store::flush).as("attempt %d", attempt)
            .isInstanceOf(StorageException.class)
            .hasMessageContaining("No space left on device")
            .satisfies(e -> assertThat(((StorageException) e.getCause()).path().toString())
                .endsWith(".cmp.tmp"));
      }
      store.flush(); // the seventh attempt succeeds
      assertThat(store.stats().flushes()).isEqualTo(1);
    } finally {
      logger.removeAppender(capture);
      logger.setLevel(level);
    }
    java.util.List<LogEvent> traces = events.stream()
        .filter(e -> e.getThrown() != null
            && e.getMessage().getFormattedMessage().startsWith("flush of")).toList();
    assertThat(traces).as("one stack trace for six failures of the same flush: %s",
        traces.stream().map(e -> String.valueOf(e.getThrown())).toList()).hasSize(1);
    assertThat(events).anySatisfy(e -> assertThat(e.getMessage().getFormattedMessage())
        .contains("flush of").contains("succeeded after 6 failed attempt(s)"));
  }
}
