package org.strata.lsm.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.ReadableFile;
import org.strata.lsm.io.WritableFile;

/**
 * A {@link FileIo} over another (the real file system by default) that records every step it
 * passes on and fails the steps its rules choose: the n-th step at an {@link IoPoint}, every step
 * on a file whose name matches a pattern, steps at random with a seeded generator, or the next n
 * steps of an operation on files whose name ends with a suffix ({@link #failNext}). A failed
 * step throws an {@link IOException} before reaching the file system, except a write failed with
 * {@link Failure#SHORT_WRITE} or {@link Failure#ENOSPC}, which first writes half its bytes (as a
 * disk that fills up mid-write does). {@link #heal()} drops every rule: the fault stops.
 * Listeners see each write ({@link #onWrite}) and each force of chosen files ({@link #onForce}).
 * Thread-safe.
 */
public final class FaultInjectingFileIo implements FileIo {
  /** The message of the JDK's IOException for ENOSPC. */
  public static final String NO_SPACE = "No space left on device";
  /** The message of an injected error other than a full disk (the text of EIO). */
  public static final String IO_ERROR = "Input/output error (injected)";

  /** What an injected failure does. */
  public enum Failure {
    /** The step fails with {@link #IO_ERROR}; nothing reaches the file. */
    ERROR,
    /** A write writes half its bytes, then fails with {@link #IO_ERROR}; other steps: ERROR. */
    SHORT_WRITE,
    /** As SHORT_WRITE, with the message of a full disk, {@link #NO_SPACE}. */
    ENOSPC;

    String message() {
      return this == ENOSPC ? NO_SPACE : IO_ERROR;
    }
  }

  /** Decides whether a step fails. Called under the injector's lock. */
  private interface Rule {
    /** The failure for this step, or null to let it through. */
    Injected decide(FileOp op, FileKind kind, String phase, Path path);
  }

  /** A failure chosen for a step; {@code message} null: the failure's own message. */
  private record Injected(Failure failure, String message) {
    static Injected of(Failure failure) {
      return failure == null ? null : new Injected(failure, null);
    }
  }

  /** Called before each force of a file whose name ends with {@code suffix}. */
  private record ForceListener(String suffix, Consumer<Path> listener) {}

  /** What is left of a {@link #failNext} count. Guarded by the injector's lock. */
  private static final class Countdown {
    int left;
    String message;
  }

  private final FileIo delegate;
  private final List<Rule> rules = new ArrayList<>(); // guarded by this
  private final Map<String, Countdown> countdowns = new HashMap<>(); // guarded by this
  private final List<IoEvent> events = new CopyOnWriteArrayList<>();
  private final AtomicInteger injected = new AtomicInteger();
  private volatile String phase = "";
  private volatile boolean recording = true;
  private volatile BiConsumer<Path, Integer> writeListener = (p, n) -> { };
  private volatile ForceListener forceListener = new ForceListener("", p -> { });

  /** Over the real file system. */
  public FaultInjectingFileIo() {
    this(FileIo.standard());
  }

  public FaultInjectingFileIo(FileIo delegate) {
    this.delegate = delegate;
  }

  // ---- configuration ---------------------------------------------------------------------

  /** Names what the test does from now on; recorded with each step and matched by points. */
  public FaultInjectingFileIo phase(String phase) {
    this.phase = phase;
    return this;
  }

  /** Whether steps are recorded in {@link #events()} (on by default). */
  public FaultInjectingFileIo recording(boolean on) {
    this.recording = on;
    return this;
  }

  /**
   * Fails the {@code nth} (1-based) step at {@code point}. With {@code lasting}, every later step
   * of the same operation on the same kind of file fails too, in any phase, until {@link #heal()}:
   * a fault that lasts, as a full or broken disk does.
   */
  public synchronized FaultInjectingFileIo failAt(IoPoint point, int nth, Failure failure,
      boolean lasting) {
    int[] seen = {0};
    boolean[] fired = {false};
    rules.add((op, kind, ph, path) -> {
      if (fired[0]) {
        return lasting && op == point.op() && kind == point.kind() ? Injected.of(failure) : null;
      }
      if (op == point.op() && kind == point.kind() && ph.equals(point.phase())
          && ++seen[0] == nth) {
        fired[0] = true;
        return Injected.of(failure);
      }
      return null;
    });
    return this;
  }

  /** Fails the {@code nth} (1-based) step {@code op} on a file of {@code kind}, in any phase. */
  public synchronized FaultInjectingFileIo failNth(FileOp op, FileKind kind, int nth,
      Failure failure) {
    int[] seen = {0};
    rules.add((o, k, ph, path) -> o == op && k == kind && ++seen[0] == nth
        ? Injected.of(failure) : null);
    return this;
  }

  /** Fails every step in {@code ops} on a file whose name matches {@code name}, until healed. */
  public synchronized FaultInjectingFileIo failMatching(Pattern name, Set<FileOp> ops,
      Failure failure) {
    rules.add((op, kind, ph, path) -> ops.contains(op)
        && name.matcher(path.getFileName().toString()).matches() ? Injected.of(failure) : null);
    return this;
  }

  /**
   * Fails each step in {@code ops} with probability {@code p}, drawn from a generator seeded with
   * {@code seed} (the same steps in the same order fail the same way), until healed.
   */
  public synchronized FaultInjectingFileIo failRandomly(long seed, double p, Set<FileOp> ops,
      Failure failure) {
    Random random = new Random(seed);
    rules.add((op, kind, ph, path) -> ops.contains(op) && random.nextDouble() < p
        ? Injected.of(failure) : null);
    return this;
  }

  /**
   * Fails the next {@code n} steps {@code op} on files whose name ends with {@code suffix}, in any
   * phase, as {@link Failure#ERROR} does (nothing reaches the file) but with the message {@code
   * message + " (<op> failure on <file name>)"}, op in lower case (e.g. {@code "injected (write
   * failure on 000000000001.cmp.tmp)"}). Sets the count of this operation and suffix, replacing
   * what was left of an earlier one: {@code n = 0} lets such steps through again.
   */
  public synchronized FaultInjectingFileIo failNext(FileOp op, String suffix, int n,
      String message) {
    Countdown c = countdowns.get(op + " " + suffix);
    if (c == null) {
      Countdown added = new Countdown();
      countdowns.put(op + " " + suffix, added);
      rules.add((o, kind, ph, path) -> {
        if (o != op || added.left == 0 || !path.getFileName().toString().endsWith(suffix)) {
          return null;
        }
        added.left--;
        return new Injected(Failure.ERROR, added.message + " ("
            + op.name().toLowerCase(java.util.Locale.ROOT) + " failure on " + path.getFileName()
            + ")");
      });
      c = added;
    }
    c.left = n;
    c.message = message;
    return this;
  }

  /** Drops every rule: from now on every step goes through. */
  public synchronized void heal() {
    rules.clear();
    countdowns.clear();
  }

  // ---- listeners -------------------------------------------------------------------------

  /**
   * Calls {@code listener} with the file and the number of bytes after each write, to any file,
   * that went through.
   */
  public FaultInjectingFileIo onWrite(BiConsumer<Path, Integer> listener) {
    this.writeListener = listener;
    return this;
  }

  /**
   * Calls {@code listener} on the forcing thread before each force, that the rules let through,
   * of a file whose name ends with {@code suffix}.
   */
  public FaultInjectingFileIo onForce(String suffix, Consumer<Path> listener) {
    this.forceListener = new ForceListener(suffix, listener);
    return this;
  }

  // ---- what happened ---------------------------------------------------------------------

  /** The steps seen so far, in order (while recording). */
  public List<IoEvent> events() {
    return List.copyOf(events);
  }

  /** How many steps were failed on purpose. */
  public int injected() {
    return injected.get();
  }

  /** Every point the recorded steps are instances of, in order of first appearance. */
  public List<IoPoint> points() {
    return events.stream().map(IoEvent::point).distinct().toList();
  }

  // Records the step; returns the failure chosen for it, or null.
  private Injected step(FileOp op, Path path, boolean directory) {
    FileKind kind = FileKind.of(path, directory);
    String ph = phase;
    Injected f = null;
    synchronized (this) {
      for (Rule r : rules) {
        Injected d = r.decide(op, kind, ph, path);
        if (d != null && f == null) {
          f = d;
        }
      }
    }
    if (f != null) {
      injected.incrementAndGet();
    }
    if (recording) {
      events.add(new IoEvent(op, kind, ph, path, f != null));
    }
    return f;
  }

  private static IOException error(Injected i, FileOp op, Path path) {
    // A full disk's message is exactly the JDK's; others say what was injected where.
    Failure f = i.failure();
    return i.message() != null ? new IOException(i.message())
        : f == Failure.ENOSPC ? new IOException(NO_SPACE)
        : new IOException(f.message() + ": " + op + " of " + path.getFileName());
  }

  private void check(FileOp op, Path path, boolean directory) throws IOException {
    Injected f = step(op, path, directory);
    if (f != null) {
      throw error(f, op, path);
    }
  }

  // ---- FileIo ----------------------------------------------------------------------------

  @Override
  public WritableFile create(Path path) throws IOException {
    check(FileOp.CREATE, path, false);
    return new Writable(path, delegate.create(path));
  }

  @Override
  public WritableFile append(Path path) throws IOException {
    check(FileOp.APPEND, path, false);
    return new Writable(path, delegate.append(path));
  }

  @Override
  public ReadableFile openForRead(Path path) throws IOException {
    check(FileOp.OPEN_READ, path, false);
    return new Readable(path, delegate.openForRead(path));
  }

  @Override
  public byte[] readAll(Path path) throws IOException {
    check(FileOp.READ_ALL, path, false);
    return delegate.readAll(path);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    check(FileOp.RENAME, from, false);
    delegate.rename(from, to);
  }

  @Override
  public void forceDirectory(Path dir) throws IOException {
    check(FileOp.FORCE_DIRECTORY, dir, true);
    delegate.forceDirectory(dir);
  }

  @Override
  public boolean delete(Path path) throws IOException {
    check(FileOp.DELETE, path, false);
    return delegate.delete(path);
  }

  @Override
  public void truncate(Path file, long size) throws IOException {
    check(FileOp.TRUNCATE, file, false);
    delegate.truncate(file, size);
  }


  private final class Writable implements WritableFile {
    private final Path path;
    private final WritableFile file;

    Writable(Path path, WritableFile file) {
      this.path = path;
      this.file = file;
    }

    @Override
    public void write(ByteBuffer buf) throws IOException {
      Injected f = step(FileOp.WRITE, path, false);
      if (f == null) {
        int n = buf.remaining();
        file.write(buf);
        writeListener.accept(path, n);
        return;
      }
      if (f.failure() != Failure.ERROR && buf.remaining() > 1) {
        ByteBuffer half = buf.duplicate();
        half.limit(half.position() + buf.remaining() / 2);
        file.write(half);
        buf.position(half.position());
      }
      throw error(f, FileOp.WRITE, path);
    }

    @Override
    public void force() throws IOException {
      check(FileOp.FORCE, path, false);
      ForceListener l = forceListener;
      if (path.getFileName().toString().endsWith(l.suffix())) {
        l.listener().accept(path);
      }
      file.force();
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }

  private final class Readable implements ReadableFile {
    private final Path path;
    private final ReadableFile file;

    Readable(Path path, ReadableFile file) {
      this.path = path;
      this.file = file;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      check(FileOp.READ, path, false);
      return file.read(dst, position);
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public boolean isOpen() {
      return file.isOpen();
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }
}
