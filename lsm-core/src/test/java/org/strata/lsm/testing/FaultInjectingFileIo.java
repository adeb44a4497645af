package org.strata.lsm.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.ReadableFile;
import org.strata.lsm.io.WritableFile;

/**
 * A {@link FileIo} over another (the real file system by default) that records every step it
 * passes on and fails the steps its rules choose: the n-th step at an {@link IoPoint}, every step
 * on a file whose name matches a pattern, or steps at random with a seeded generator. A failed
 * step throws an {@link IOException} before reaching the file system, except a write failed with
 * {@link Failure#SHORT_WRITE} or {@link Failure#ENOSPC}, which first writes half its bytes (as a
 * disk that fills up mid-write does). {@link #heal()} drops every rule: the fault stops.
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
    Failure decide(FileOp op, FileKind kind, String phase, Path path);
  }

  private final FileIo delegate;
  private final List<Rule> rules = new ArrayList<>(); // guarded by this
  private final List<IoEvent> events = new CopyOnWriteArrayList<>();
  private final AtomicInteger injected = new AtomicInteger();
  private volatile String phase = "";
  private volatile boolean recording = true;

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
   * of the same operation on the same kind of file fails too, in any phase, until {@link #heal()}: a
   * fault that lasts, as a full or broken disk does.
   */
  public synchronized FaultInjectingFileIo failAt(IoPoint point, int nth, Failure failure,
      boolean lasting) {
    int[] seen = {0};
    boolean[] fired = {false};
    rules.add((op, kind, ph, path) -> {
      if (fired[0]) {
        return lasting && op == point.op() && kind == point.kind() ? failure : null;
      }
      if (op == point.op() && kind == point.kind() && ph.equals(point.phase())
          && ++seen[0] == nth) {
        fired[0] = true;
        return failure;
      }
      return null;
    });
    return this;
  }

  /** Fails the {@code nth} (1-based) step {@code op} on a file of {@code kind}, in any phase. */
  public synchronized FaultInjectingFileIo failNth(FileOp op, FileKind kind, int nth,
      Failure failure) {
    int[] seen = {0};
    rules.add((o, k, ph, path) -> o == op && k == kind && ++seen[0] == nth ? failure : null);
    return this;
  }

  /** Fails every step in {@code ops} on a file whose name matches {@code name}, until healed. */
  public synchronized FaultInjectingFileIo failMatching(Pattern name, Set<FileOp> ops,
      Failure failure) {
    rules.add((op, kind, ph, path) -> ops.contains(op)
        && name.matcher(path.getFileName().toString()).matches() ? failure : null);
    return this;
  }

  /**
   * Fails each step in {@code ops} with probability {@code p}, drawn from a generator seeded with
   * {@code seed} (the same steps in the same order fail the same way), until healed.
   */
  public synchronized FaultInjectingFileIo failRandomly(long seed, double p, Set<FileOp> ops,
      Failure failure) {
    Random random = new Random(seed);
    rules.add((op, kind, ph, path) -> ops.contains(op) && random.nextDouble() < p ? failure : null);
    return this;
  }

  /** Drops every rule: from now on every step goes through. */
  public synchronized void heal() {
    rules.clear();
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
  private Failure step(FileOp op, Path path, boolean directory) {
    FileKind kind = FileKind.of(path, directory);
    String ph = phase;
    Failure f = null;
    synchronized (this) {
      for (Rule r : rules) {
        Failure d = r.decide(op, kind, ph, path);
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

  private static IOException error(Failure f, FileOp op, Path path) {
    // A full disk's message is exactly the JDK's; others say what was injected where.
    return f == Failure.ENOSPC ? new IOException(NO_SPACE)
        : new IOException(f.message() + ": " + op + " of " + path.getFileName());
  }

  private void check(FileOp op, Path path, boolean directory) throws IOException {
    Failure f = step(op, path, directory);
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
      Failure f = step(FileOp.WRITE, path, false);
      if (f == null) {
        file.write(buf);
        return;
      }
      if (f != Failure.ERROR && buf.remaining() > 1) {
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
