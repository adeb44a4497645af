package org.strata.lsm.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.ReadableFile;
import org.strata.lsm.io.WritableFile;

/**
 * A {@link FileIo} over another (the real file system by default) that counts the bytes and the
 * calls of {@link ReadableFile#read} on the files whose path {@code counted} accepts (for
 * example a CL-SSTable's {@code .clog} segments), so a test can say how many bytes a read or a
 * merge fetched. Everything else is passed on unchanged. Thread-safe.
 */
public final class CountingFileIo implements FileIo {
  private final FileIo delegate;
  private final Predicate<Path> counted;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong calls = new AtomicLong();

  /** Counts the reads of files whose name ends with {@code suffix}, on the real file system. */
  public static CountingFileIo ofSuffix(String suffix) {
    return new CountingFileIo(FileIo.standard(),
        p -> p.getFileName().toString().endsWith(suffix));
  }

  public CountingFileIo(FileIo delegate, Predicate<Path> counted) {
    this.delegate = delegate;
    this.counted = counted;
  }

  /** Bytes returned by counted reads so far. */
  public long bytesRead() {
    return bytes.get();
  }

  /** Counted read calls so far. */
  public long readCalls() {
    return calls.get();
  }

  /** Sets both counters to zero. */
  public void reset() {
    bytes.set(0);
    calls.set(0);
  }

  @Override
  public WritableFile create(Path path) throws IOException {
    return delegate.create(path);
  }

  @Override
  public WritableFile append(Path path) throws IOException {
    return delegate.append(path);
  }

  @Override
  public ReadableFile openForRead(Path path) throws IOException {
    ReadableFile f = delegate.openForRead(path);
    return counted.test(path) ? new Counted(f) : f;
  }

  @Override
  public byte[] readAll(Path path) throws IOException {
    return delegate.readAll(path);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    delegate.rename(from, to);
  }

  @Override
  public void forceDirectory(Path dir) throws IOException {
    delegate.forceDirectory(dir);
  }

  @Override
  public boolean delete(Path path) throws IOException {
    return delegate.delete(path);
  }

  @Override
  public void truncate(Path file, long size) throws IOException {
    delegate.truncate(file, size);
  }

  private final class Counted implements ReadableFile {
    private final ReadableFile file;

    Counted(ReadableFile file) {
      this.file = file;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      int n = file.read(dst, position);
      calls.incrementAndGet();
      if (n > 0) {
        bytes.addAndGet(n);
      }
      return n;
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
