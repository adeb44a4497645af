package org.strata.lsm.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How the engine creates files it writes. The default writes real files with {@link FileChannel};
 * tests substitute one that fails on chosen writes or forces to check fault handling.
 */
public interface FileIo {
  /** Creates (or truncates) {@code path} for appending. */
  WritableFile create(Path path) throws IOException;

  /** Opens an existing file for appending at its end. */
  WritableFile append(Path path) throws IOException;

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
    public void write(java.nio.ByteBuffer buf) throws IOException {
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
