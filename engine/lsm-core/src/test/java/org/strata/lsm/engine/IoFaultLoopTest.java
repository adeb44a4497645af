package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.Durability;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.testing.AckedWrites;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FaultInjectingFileIo.Failure;
import org.strata.lsm.testing.FileKind;
import org.strata.lsm.testing.FileOp;
import org.strata.lsm.testing.IoPoint;
import org.strata.lsm.testing.TestStores;

/**
 * The exhaustive I/O fault loop, in the manner of SQLite's I/O error tests: a fixed workload
 * (writes forced to the log, flushes that roll and truncate the log and update the manifest, a
 * merge, reads, a close and a reopen that reads the configuration, manifest, log and components)
 * runs once through a recording {@link FaultInjectingFileIo} to enumerate every injection point
 * (workload phase, file-system step, file kind); then, for every point, the workload runs again
 * with that step failing from its first occurrence in its phase to the end of that workload step
 * (as an I/O error; for creations and writes also as a full disk, and for writes also
 * short-written), when the fault is healed and the workload stops. Each run checks:
 *
 * <ul>
 *   <li>the error reaches the caller, the statistics or the log (background errors stick);
 *   <li>while the fault lasts, every read gives an allowed value (or, for a failed read, an
 *       error): never a wrong value;
 *   <li>once healed, the store either goes on (a write and a flush succeed) or refuses writes
 *       with an error, which the run records; either way,
 *   <li>after a reopen on a healthy file system nothing acknowledged is lost, nothing unwritten
 *       appears, {@code verify} is clean and writes are accepted.
 * </ul>
 *
 * <p>The number of points must not drop below what the workload exercises, and the points of
 * flush, merge, manifest update, log append, log roll, log truncation and recovery must all be
 * among them, so coverage cannot shrink silently.
 */
class IoFaultLoopTest {
  /** Points this workload exercises (the recording run found this many). */
  private static final int MIN_POINTS = 57;

  /** Points that must be among those enumerated, whatever else changes. */
  private static final List<IoPoint> REQUIRED = List.of(
      new IoPoint("open", FileOp.WRITE, FileKind.CONFIG),
      new IoPoint("put", FileOp.WRITE, FileKind.LOG_SEGMENT), // log append
      new IoPoint("put", FileOp.FORCE, FileKind.LOG_SEGMENT),
      new IoPoint("put", FileOp.FORCE_DIRECTORY, FileKind.DIRECTORY), // new segment's entry
      new IoPoint("flush", FileOp.FORCE, FileKind.LOG_SEGMENT), // log roll
      new IoPoint("flush", FileOp.CREATE, FileKind.LOG_SEGMENT),
      new IoPoint("flush", FileOp.DELETE, FileKind.LOG_SEGMENT), // log truncation
      // The log's catalogue: a new segment listed at its first force, truncation listed first.
      new IoPoint("put", FileOp.WRITE, FileKind.LOG_CATALOG),
      new IoPoint("put", FileOp.RENAME, FileKind.LOG_CATALOG),
      new IoPoint("flush", FileOp.WRITE, FileKind.LOG_CATALOG),
      new IoPoint("flush", FileOp.FORCE, FileKind.LOG_CATALOG),
      new IoPoint("flush", FileOp.CREATE, FileKind.COMPONENT_TMP),
      new IoPoint("flush", FileOp.WRITE, FileKind.COMPONENT_TMP),
      new IoPoint("flush", FileOp.FORCE, FileKind.COMPONENT_TMP),
      new IoPoint("flush", FileOp.RENAME, FileKind.COMPONENT_TMP),
      new IoPoint("flush", FileOp.FORCE_DIRECTORY, FileKind.DIRECTORY),
      new IoPoint("flush", FileOp.OPEN_READ, FileKind.COMPONENT),
      new IoPoint("flush", FileOp.WRITE, FileKind.MANIFEST_TMP), // manifest update
      new IoPoint("flush", FileOp.FORCE, FileKind.MANIFEST_TMP),
      new IoPoint("flush", FileOp.RENAME, FileKind.MANIFEST_TMP),
      new IoPoint("merge", FileOp.READ, FileKind.COMPONENT),
      new IoPoint("merge", FileOp.WRITE, FileKind.COMPONENT_TMP),
      new IoPoint("merge", FileOp.FORCE, FileKind.COMPONENT_TMP),
      new IoPoint("merge", FileOp.RENAME, FileKind.COMPONENT_TMP),
      new IoPoint("merge", FileOp.WRITE, FileKind.MANIFEST_TMP),
      new IoPoint("merge", FileOp.RENAME, FileKind.MANIFEST_TMP),
      new IoPoint("merge", FileOp.DELETE, FileKind.COMPONENT), // obsolete inputs
      new IoPoint("get", FileOp.READ, FileKind.COMPONENT),
      new IoPoint("reopen", FileOp.READ_ALL, FileKind.CONFIG),
      new IoPoint("reopen", FileOp.READ_ALL, FileKind.MANIFEST),
      new IoPoint("reopen", FileOp.READ_ALL, FileKind.LOG_SEGMENT),
      new IoPoint("reopen", FileOp.OPEN_READ, FileKind.COMPONENT),
      new IoPoint("reopen", FileOp.READ, FileKind.COMPONENT));

  @TempDir Path tmp;

  private static final List<String> logged = new CopyOnWriteArrayList<>();
  private static LoggerConfig root;
  private static Level rootLevel;
  private static Map<String, Appender> rootAppenders;
  private static Appender capture;

  /**
   * Sends every WARN and ERROR event to a capture instead of the console (hundreds of injected
   * faults would print hundreds of stack traces), restored afterwards.
   */
  @BeforeAll
  static void captureLog() {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    root = ctx.getConfiguration().getRootLogger();
    rootLevel = root.getLevel();
    rootAppenders = Map.copyOf(root.getAppenders());
    rootAppenders.keySet().forEach(root::removeAppender);
    capture = new AbstractAppender("io-fault-loop", null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent e) {
        StringBuilder s = new StringBuilder(e.getMessage().getFormattedMessage());
        for (Throwable t = e.getThrown(); t != null; t = t.getCause()) {
          s.append(" / ").append(t);
        }
        logged.add(s.toString());
      }
    };
    capture.start();
    root.addAppender(capture, Level.WARN, null);
    root.setLevel(Level.WARN);
    ctx.updateLoggers();
  }

  @AfterAll
  static void restoreLog() {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    root.removeAppender(capture.getName());
    rootAppenders.values().forEach(a -> root.addAppender(a, null, null));
    root.setLevel(rootLevel);
    ctx.updateLoggers();
  }

  static StoreConfig config() {
    // Durability sync: an acknowledged write is on disk. A large memory component and no
    // automatic merges: the workload's own flush and compact calls decide what happens when,
    // so every run reaches the same steps in the same order. No page cache: gets read pages.
    return TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withPageCache(PageCacheConfig.of(0))
        .withDurability(Durability.SYNC);
  }

  /** What one run of the workload saw. */
  static final class Run {
    final Path dir;
    final FaultInjectingFileIo io;
    final AckedWrites model = new AckedWrites();
    final List<Throwable> errors = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final boolean readFault;
    LsmStore store;
    int batch;
    /** Called once at the end of the step in which the first fault was injected. */
    Runnable onFault = () -> { };
    boolean faulted;
    /** Set once the fault was handled: the remaining steps are skipped. */
    boolean stopped;

    Run(Path dir, FaultInjectingFileIo io, boolean readFault) {
      this.dir = dir;
      this.io = io;
      this.readFault = readFault;
    }

    StoreEnvironment env() {
      return new StoreEnvironment(Clock.system(), io);
    }

    /** Runs one workload step; a failure is recorded, and a failed close leaves no store. */
    void step(String phase, StepAction action) {
      if (stopped) {
        return;
      }
      io.phase(phase);
      try {
        action.run();
      } catch (RuntimeException e) {
        errors.add(e);
      } finally {
        io.phase("check");
      }
      if (store != null) {
        StoreStats st = store.stats();
        if (st.backgroundError() != null) {
          warnings.add("stats: " + st.backgroundError());
        }
        for (MergeRecord r : st.mergeLog()) {
          if (r.outcome().startsWith("failed")) {
            warnings.add("merge log: " + r.outcome());
          }
        }
        readable(phase);
      }
      if (!faulted && io.injected() > 0) {
        faulted = true;
        onFault.run();
      }
    }

    /** The store serves only allowed values; with a read fault, a read may fail instead. */
    void readable(String after) {
      try {
        model.check(store, "after " + after);
      } catch (RuntimeException e) {
        if (!readFault) {
          throw e;
        }
        errors.add(e); // a failed read: an error, never a wrong value
      }
    }

    void open() {
      store = LsmStore.open(dir, config(), env());
    }

    /** Opens the store with its saved configuration (a refused first open saved none). */
    void reopen() {
      boolean saved = Files.exists(dir.resolve(LsmTree.CONFIG_FILE));
      store = LsmStore.open(dir, saved ? null : config(), env());
    }

    /** A batch of puts (overlapping earlier batches: updates) and a delete, forced to the log. */
    void writeBatch() {
      if (store == null) {
        return;
      }
      int n = batch++;
      Map<String, String> ops = new TreeMap<>();
      for (int i = 0; i < 6; i++) {
        ops.put("k" + ((n * 4 + i) % 40), "v" + n + "-" + i);
      }
      ops.put("k" + ((n * 7 + 3) % 40), null);
      WriteBatch b = new WriteBatch();
      ops.forEach((k, v) -> {
        if (v == null) {
          b.delete(k.getBytes(StandardCharsets.UTF_8));
        } else {
          b.put(k.getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
        }
      });
      try {
        store.write(b);
      } catch (RuntimeException e) {
        ops.forEach(model::uncertain);
        throw e;
      }
      ops.forEach(model::acked);
    }

    void close() {
      if (store != null) {
        LsmStore s = store;
        store = null;
        s.close();
      }
    }

    void ifOpen(StepAction a) {
      if (store != null) {
        a.run();
      }
    }

    /** The fixed workload; it leaves the store open (if it is). */
    void workload() {
      step("open", this::open);
      step("put", this::writeBatch);
      step("put", this::writeBatch);
      step("flush", () -> ifOpen(() -> store.flush()));
      step("put", this::writeBatch);
      step("put", this::writeBatch);
      step("flush", () -> ifOpen(() -> store.flush()));
      step("put", this::writeBatch);
      step("flush", () -> ifOpen(() -> store.flush()));
      step("get", () -> ifOpen(() -> model.check(store, "get")));
      step("merge", () -> ifOpen(() -> store.compact()));
      step("get", () -> ifOpen(() -> model.check(store, "get")));
      step("put", this::writeBatch);
      step("close", this::close);
      step("reopen", this::reopen);
      step("get", () -> ifOpen(() -> model.check(store, "get")));
      step("put", this::writeBatch);
      step("flush", () -> ifOpen(() -> store.flush()));
    }
  }

  /** A workload step. */
  interface StepAction {
    void run();
  }

  @Test
  void everyInjectionPointKeepsAcknowledgedWritesAndReportsTheError() throws Exception {
    FaultInjectingFileIo recorder = new FaultInjectingFileIo();
    Run clean = new Run(tmp.resolve("clean"), recorder, false);
    clean.workload();
    clean.step("close", clean::close);
    assertThat(clean.errors).as("the workload without faults").isEmpty();
    List<IoPoint> points = recorder.points().stream().filter(p -> !p.phase().equals("check"))
        .toList();
    assertThat(points).as("points the workload exercises").containsAll(REQUIRED);
    assertThat(points.size()).as("number of points (%s)", points)
        .isGreaterThanOrEqualTo(MIN_POINTS);

    Map<String, List<String>> outcomes = new TreeMap<>();
    int runs = 0;
    for (IoPoint p : points) {
      List<Failure> failures = new ArrayList<>(List.of(Failure.ERROR));
      if (p.op() == FileOp.WRITE) {
        failures.add(Failure.SHORT_WRITE);
      }
      if (p.op() == FileOp.WRITE || p.op() == FileOp.CREATE) {
        failures.add(Failure.ENOSPC);
      }
      for (Failure f : failures) {
        String what = p + " " + f;
        String outcome = runWithFault(tmp.resolve("run" + runs), p, f, what);
        runs++;
        outcomes.computeIfAbsent(outcome, k -> new ArrayList<>()).add(what);
      }
    }
    System.out.printf("I/O fault loop: %d injection points, %d runs, no acknowledged write lost;"
        + " once the fault stopped:%n", points.size(), runs);
    outcomes.forEach((outcome, at) -> System.out.printf("  %d: %s%n    at %s%n", at.size(),
        outcome, at));
  }

  /**
   * Faults at random (seeded, printed): every step fails with probability 3% for the whole
   * workload, as an I/O error or a full disk; then the faults stop. Every injected error is seen,
   * no read gives a wrong value, and after a reopen nothing acknowledged is lost.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 24, 37, 42, 59})
  void randomFaultsLoseNothingAcknowledged(long seed) throws IOException {
    System.out.println("IoFaultLoopTest random faults, seed " + seed);
    logged.clear();
    Failure failure = seed % 2 == 0 ? Failure.ERROR : Failure.ENOSPC;
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false)
        .failRandomly(seed, 0.03, EnumSet.allOf(FileOp.class), failure);
    Path dir = tmp.resolve("random-" + seed);
    Run run = new Run(dir, io, true);
    String what = "seed " + seed;
    try {
      run.workload();
    } catch (AssertionError e) {
      throw new AssertionError(what + ": " + e.getMessage(), e);
    }
    String message = failure == Failure.ENOSPC ? FaultInjectingFileIo.NO_SPACE
        : FaultInjectingFileIo.IO_ERROR;
    if (io.injected() > 0) {
      assertThat(run.errors.stream().anyMatch(e -> mentions(e, message))
          || run.warnings.stream().anyMatch(w -> w.contains(message))
          || logged.stream().anyMatch(l -> l.contains(message)))
          .as("%s: %d injected errors, none seen", what, io.injected()).isTrue();
    }
    io.heal();
    try {
      run.close();
    } catch (RuntimeException e) {
      // the reopen decides
    }
    reopenAndCheck(run, what);
    System.out.printf("  seed %d: %d steps failed, %d acknowledged writes kept%n", seed,
        io.injected(), run.model.ackedCount());
    deleteTree(dir);
  }

  /**
   * One run with {@code point} failing; returns what the store did once the fault stopped: went
   * on, refused writes until reopened (with the message), or was not open (an open refused under
   * the fault) and opened once healed.
   */
  private String runWithFault(Path dir, IoPoint point, Failure failure, String what)
      throws IOException {
    logged.clear();
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    io.failAt(point, 1, failure, true);
    Run run = new Run(dir, io, point.op().isRead());
    String[] outcome = {null};
    String message = failure == Failure.ENOSPC ? FaultInjectingFileIo.NO_SPACE
        : FaultInjectingFileIo.IO_ERROR;
    run.onFault = () -> {
      // By the end of the step in which the fault fired, the error must have been seen.
      boolean seen = run.errors.stream().anyMatch(e -> mentions(e, message))
          || run.warnings.stream().anyMatch(w -> w.contains(message))
          || logged.stream().anyMatch(l -> l.contains(message));
      if (!seen) {
        fail(what + ": the injected error reached neither the caller, the stats nor the log;"
            + " caller saw " + run.errors + ", log " + logged);
      }
      // The step in which the fault fired is over (every later step of its kind in it failed
      // too, and reads were checked while it lasted): the fault stops.
      io.heal();
      outcome[0] = afterHealing(run, what);
      run.stopped = true;
    };
    try {
      run.workload();
    } catch (AssertionError e) {
      throw String.valueOf(e.getMessage()).startsWith(what) ? e
          : new AssertionError(what + ": while the fault lasted: " + e.getMessage(), e);
    }
    assertThat(io.injected()).as("%s: the point was reached", what).isPositive();
    try {
      run.close();
    } catch (RuntimeException e) {
      // what matters is that the reopen below finds every acknowledged write
    }

    reopenAndCheck(run, what);
    deleteTree(dir);
    return outcome[0];
  }

  /**
   * Reopens the store of {@code run} on the real file system: nothing acknowledged lost, nothing
   * unwritten present, verify clean, writes accepted.
   */
  private static void reopenAndCheck(Run run, String what) {
    Path dir = run.dir;
    Run after = new Run(dir, new FaultInjectingFileIo(FileIo.standard()), false);
    try {
      after.reopen();
      run.model.check(after.store, what + ", reopened");
      after.store.put("after".getBytes(StandardCharsets.UTF_8),
          "ok".getBytes(StandardCharsets.UTF_8));
      after.store.flush();
      after.close();
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": after healing and reopening: " + e, e);
    }
    StoreVerifier.VerifyReport v = StoreVerifier.verify(dir);
    assertThat(v.ok()).as("%s: verify: %s", what, v).isTrue();
  }

  /** Once the fault stopped: does the store go on, refuse writes until reopened, or reopen? */
  private static String afterHealing(Run run, String what) {
    String outcome;
    if (run.store == null) {
      run.io.phase("reopen");
      try {
        run.reopen();
      } catch (RuntimeException e) {
        throw new AssertionError(what + ": after healing, the store does not open: " + e, e);
      }
      outcome = "not open when the fault stopped (its open or close failed); opens once healed";
    } else {
      outcome = "goes on: the next write and flush succeed";
    }
    try {
      run.io.phase("after");
      try {
        run.writeBatch();
      } catch (RuntimeException e) {
        if (!String.valueOf(e.getMessage()).contains("flush() retries it")) {
          throw e;
        }
        // A failed background flush stops writes until a flush succeeds, as the error says.
        run.store.flush();
        run.writeBatch();
        outcome = "goes on after the flush() the refusal asks for";
      }
      run.store.flush();
    } catch (RuntimeException e) {
      String m = String.valueOf(e.getMessage());
      assertThat(m).as("%s: a refusal after the fault says what to do", what)
          .contains("until the store is reopened");
      outcome = "refuses writes until reopened: " + m.replaceAll("/[^ :]*/", "…/")
          .replaceAll("[0-9]+", "#");
    }
    return outcome;
  }

  private static boolean mentions(Throwable e, String text) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains(text)) {
        return true;
      }
      for (Throwable s : t.getSuppressed()) {
        if (mentions(s, text)) {
          return true;
        }
      }
    }
    return false;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
