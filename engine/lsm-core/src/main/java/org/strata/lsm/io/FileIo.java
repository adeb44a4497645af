package org.strata.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Every file-system step the engine takes on the files of a store: creating and appending files
 * ({@link WritableFile}: write, force), reading them ({@link ReadableFile}, {@link #readAll}),
 * renaming, forcing a directory, deleting and truncating. The default methods are the real file
 * system, which {@link #standard()} is; tests substitute an implementation that fails chosen
 * operations to check fault handling (the engine must route every step through here, so that no
 * step escapes injection).
 */
public interface FileIo {
  /** Creates (or truncates) {@code path} for appending. */
  WritableFile create(Path path) throws IOException;

  /** Opens an existing file for appending at its end. */
  WritableFile append(Path path) throws IOException;

  /** Opens an existing file for positional reads. */
  default ReadableFile openForRead(Path path) throws IOException {
    return new ChannelReadableFile(FileChannel.open(path, StandardOpenOption.READ));
  }

  /** Reads a whole file (a log segment, a manifest, a configuration). */
  default byte[] readAll(Path path) throws IOException {
    return Files.readAllBytes(path);
  }

  /**
   * Atomically renames {@code from} to {@code to}, replacing {@code to} if it exists. Not durable
   * until the directory is forced ({@link #forceDirectory}).
   */
  default void rename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Forces a directory's entries (creations, renames, deletions) to stable storage. A file system
   * that cannot open a directory at all has nothing to force, and that is no error; a failed force
   * of an opened directory is.
   */
  default void forceDirectory(Path dir) throws IOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException e) {
      if (!Files.isDirectory(dir)) {
        throw e;
      }
      return;
    }
    try (ch) {
      ch.force(true);
    }
  }

  /** Deletes {@code path} if it exists; returns whether it did. */
  default boolean delete(Path path) throws IOException {
    return Files.deleteIfExists(path);
  }

  /** Cuts {@code file} to {@code size} bytes and forces it (recovery cutting a torn log tail). */
  default void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
      ch.force(true);
    }
  }

  /** The real file system. */
  static FileIo standard() {
    return StandardFileIo.INSTANCE;
  }

  /** {@link WritableFile} over a {@link FileChannel}. */
  final class ChannelFile implements WritableFile {
    private final FileChannel channel;

    public ChannelFile(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public void write(ByteBuffer buf) throws IOException {
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
    }

    @Override
    public void force() throws IOException {
      channel.force(true);
    }

    @Override
    public long size() throws IOException {
      return channel.position();
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** {@link ReadableFile} over a {@link FileChannel}. */
  final class ChannelReadableFile implements ReadableFile {
    private final FileChannel channel;

    public ChannelReadableFile(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return channel.read(dst, position);
    }

    @Override
    public long size() throws IOException {
      return channel.size();
    }

    @Override
    public boolean isOpen() {
      return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** The default implementation. */
  enum StandardFileIo implements FileIo {
    INSTANCE;

    @Override
    public WritableFile create(Path path) throws IOException {
      return new ChannelFile(
          FileChannel.open(
              path,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE));
    }

    @Override
    public WritableFile append(Path path) throws IOException {
      FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE);
      ch.position(ch.size());
      return new ChannelFile(ch);
    }
  }
}
