package org.strata.lsm.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.WritableFile;

/**
 * A {@link FileIo} over the real file system that remembers how many bytes of each file written
 * through it were forced, and copies a directory as a machine crash (power loss, kernel panic) at
 * that moment would leave it: every such file cut to its forced length. Bytes written but not
 * forced are what the operating system's cache loses; a process kill, which the crash loop uses,
 * keeps them, so only this shows what a durability mode promises about machine crashes.
 *
 * <p>It models file contents only. Directory entries are taken as they are at the copy (a file
 * created, renamed or deleted since the directory was last forced could be undone by a real crash);
 * the engine forces a directory after each such step it relies on. A file this instance never
 * wrote is copied whole. An image is taken while no step of this instance runs (every step takes
 * a shared lock, the image an exclusive one), so it is the state at one moment even while a
 * background thread of the engine (a log's roll under {@code none}) works.
 */
public final class PowerLossFileIo implements FileIo {
  private final Map<Path, Long> forced = new ConcurrentHashMap<>();
  private final java.util.concurrent.locks.ReentrantReadWriteLock moment =
      new java.util.concurrent.locks.ReentrantReadWriteLock();

  private interface Step<T> {
    T run() throws IOException;
  }

  private <T> T step(Step<T> s) throws IOException {
    moment.readLock().lock();
    try {
      return s.run();
    } finally {
      moment.readLock().unlock();
    }
  }
  private volatile Consumer<Path> createListener = p -> { };

  private static Path key(Path p) {
    return p.toAbsolutePath().normalize();
  }

  @Override
  public WritableFile create(Path path) throws IOException {
    WritableFile f = step(() -> {
      WritableFile created = FileIo.standard().create(path);
      forced.put(key(path), 0L);
      return created;
    });
    createListener.accept(path);
    return wrap(path, f);
  }

  @Override
  public WritableFile append(Path path) throws IOException {
    WritableFile f = FileIo.standard().append(path);
    // What the file held before this instance saw it counts as forced, unless it wrote it.
    forced.putIfAbsent(key(path), Files.size(path));
    return wrap(path, f);
  }

  private WritableFile wrap(Path path, WritableFile f) {
    Path k = key(path);
    return new WritableFile() {
      @Override
      public void write(ByteBuffer buf) throws IOException {
        step(() -> {
          f.write(buf);
          return null;
        });
      }

      @Override
      public void force() throws IOException {
        step(() -> {
          long written = f.size(); // what was written before the force began is covered by it
          f.force();
          forced.merge(k, written, Math::max);
          return null;
        });
      }

      @Override
      public long size() throws IOException {
        return f.size();
      }

      @Override
      public void close() throws IOException {
        f.close();
      }
    };
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    step(() -> {
      FileIo.super.rename(from, to);
      Long n = forced.remove(key(from));
      if (n != null) {
        forced.put(key(to), n);
      } else {
        forced.remove(key(to));
      }
      return null;
    });
  }

  @Override
  public boolean delete(Path path) throws IOException {
    return step(() -> {
      boolean deleted = FileIo.super.delete(path);
      forced.remove(key(path));
      return deleted;
    });
  }

  @Override
  public void truncate(Path file, long size) throws IOException {
    step(() -> {
      FileIo.super.truncate(file, size); // forces
      forced.put(key(file), size);
      return null;
    });
  }

  /** Calls {@code listener} on the creating thread after each file is created. */
  public void onCreate(Consumer<Path> listener) {
    this.createListener = listener;
  }

  /** Bytes of {@code file} forced so far, or -1 if this instance never wrote it. */
  public long forcedLength(Path file) {
    return forced.getOrDefault(key(file), -1L);
  }

  /**
   * Copies {@code src} (a file tree) to {@code dst} as a machine crash now would leave it: each
   * file this instance wrote holds only its forced bytes. Files that disappear during the copy (a
   * concurrent deletion) are left out, as the crash would have found them gone or about to go.
   */
  public void image(Path src, Path dst) throws IOException {
    moment.writeLock().lock();
    try {
      imageLocked(src, dst);
    } finally {
      moment.writeLock().unlock();
    }
  }

  private void imageLocked(Path src, Path dst) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(src)) {
      files = s.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      Path target = dst.resolve(src.relativize(f).toString());
      Files.createDirectories(target.getParent());
      long keep = forced.getOrDefault(key(f), Long.MAX_VALUE);
      try (InputStream in = Files.newInputStream(f);
          OutputStream out = Files.newOutputStream(target)) {
        byte[] buf = new byte[64 * 1024];
        long left = keep;
        int n;
        while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
          out.write(buf, 0, n);
          left -= n;
        }
      } catch (NoSuchFileException e) {
        Files.deleteIfExists(target);
      }
    }
  }
}
