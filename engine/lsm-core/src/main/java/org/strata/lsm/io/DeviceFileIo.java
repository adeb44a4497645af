package org.strata.lsm.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A {@link FileIo} that runs its steps on a {@link Device}: every byte written (a log append, a
 * flush's or a merge's component) and read (a merge's inputs, a page a lookup misses in the cache,
 * a log or manifest read at open) costs the device's time, and every force its latency, before the
 * step goes to the file system underneath. Renames, deletions and creations are free. The store
 * gets it in place of its {@link StoreEnvironment#fileIo()} when its configuration
 * names a device, so every file step of the engine is charged, and nothing else changes.
 */
public final class DeviceFileIo implements FileIo {
  private final FileIo delegate;
  private final Device device;

  /** {@code delegate}'s steps, charged to {@code device}. */
  public DeviceFileIo(FileIo delegate, Device device) {
    this.delegate = delegate;
    this.device = device;
  }

  /** The device counters of {@code io}: its device's if it is a {@code DeviceFileIo}, else none. */
  public static DeviceCounters countersOf(FileIo io) {
    return io instanceof DeviceFileIo d ? d.device().counters() : DeviceCounters.NONE;
  }

  /** The device the steps are charged to. */
  public Device device() {
    return device;
  }

  @Override
  public WritableFile create(Path path) throws IOException {
    return new Writable(delegate.create(path));
  }

  @Override
  public WritableFile append(Path path) throws IOException {
    return new Writable(delegate.append(path));
  }

  @Override
  public ReadableFile openForRead(Path path) throws IOException {
    ReadableFile f = delegate.openForRead(path);
    return new ReadableFile() {
      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        int n = f.read(dst, position);
        if (n > 0) {
          charge(() -> device.read(n));
        }
        return n;
      }

      @Override
      public long size() throws IOException {
        return f.size();
      }

      @Override
      public boolean isOpen() {
        return f.isOpen();
      }

      @Override
      public void close() throws IOException {
        f.close();
      }
    };
  }

  @Override
  public byte[] readAll(Path path) throws IOException {
    byte[] b = delegate.readAll(path);
    charge(() -> device.read(b.length));
    return b;
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    delegate.rename(from, to);
  }

  @Override
  public void forceDirectory(Path dir) throws IOException {
    charge(device::force);
    delegate.forceDirectory(dir);
  }

  @Override
  public boolean delete(Path path) throws IOException {
    return delegate.delete(path);
  }

  @Override
  public void truncate(Path file, long size) throws IOException {
    charge(device::force);
    delegate.truncate(file, size);
  }

  private interface Charge {
    void run() throws InterruptedException;
  }

  private static void charge(Charge c) throws IOException {
    try {
      c.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the device");
    }
  }

  private final class Writable implements WritableFile {
    private final WritableFile file;

    Writable(WritableFile file) {
      this.file = file;
    }

    @Override
    public void write(ByteBuffer buf) throws IOException {
      int n = buf.remaining();
      charge(() -> device.write(n));
      file.write(buf);
    }

    @Override
    public void force() throws IOException {
      charge(device::force);
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
}
