package org.strata.lsm.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.WritableFile;

/**
 * A {@link FileIo} over the real file system that can fail the next N creations, writes or forces
 * of files whose name ends with a given suffix, and can report each write (path, bytes) and each
 * force (path, before it starts) to a listener.
 */
public final class FaultyFileIo implements FileIo {
  private final String suffix;
  private final AtomicInteger failWrites = new AtomicInteger();
  private final AtomicInteger failForces = new AtomicInteger();
  private final AtomicInteger failCreates = new AtomicInteger();
  private volatile BiConsumer<Path, Integer> writeListener = (p, n) -> { };
  private volatile Consumer<Path> forceListener = p -> { };

  private volatile String message = "injected";

  public FaultyFileIo(String suffix) {
    this.suffix = suffix;
  }

  /** The message of the injected errors, e.g. the one a full disk gives. */
  public FaultyFileIo withMessage(String message) {
    this.message = message;
    return this;
  }

  public void failNextWrites(int n) {
    failWrites.set(n);
  }

  public void failNextForces(int n) {
    failForces.set(n);
  }

  public void failNextCreates(int n) {
    failCreates.set(n);
  }

  public void onWrite(BiConsumer<Path, Integer> listener) {
    this.writeListener = listener;
  }

  /** Calls {@code listener} on the forcing thread before each force of a file with the suffix. */
  public void onForce(Consumer<Path> listener) {
    this.forceListener = listener;
  }

  @Override
  public WritableFile create(Path path) throws IOException {
    if (path.getFileName().toString().endsWith(suffix)
        && failCreates.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IOException(message + " (create failure on " + path.getFileName() + ")");
    }
    return wrap(path, FileIo.standard().create(path));
  }

  @Override
  public WritableFile append(Path path) throws IOException {
    return wrap(path, FileIo.standard().append(path));
  }

  private WritableFile wrap(Path path, WritableFile f) {
    boolean target = path.getFileName().toString().endsWith(suffix);
    return new WritableFile() {
      @Override
      public void write(ByteBuffer buf) throws IOException {
        if (target && failWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw new IOException(message + " (write failure on " + path.getFileName() + ")");
        }
        int n = buf.remaining();
        f.write(buf);
        writeListener.accept(path, n);
      }

      @Override
      public void force() throws IOException {
        if (target && failForces.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw new IOException(message + " (force failure on " + path.getFileName() + ")");
        }
        if (target) {
          forceListener.accept(path);
        }
        f.force();
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
}
