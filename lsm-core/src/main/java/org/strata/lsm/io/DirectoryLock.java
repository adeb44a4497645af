package org.strata.lsm.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.strata.lsm.StrataException;

/**
 * An exclusive OS lock on the {@code LOCK} file of a store or dataset directory, held while a
 * process has it open. A second holder, in this process or another, is refused.
 */
public final class DirectoryLock implements AutoCloseable {
  /** The lock file's name. */
  public static final String FILE = "LOCK";

  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code dir} (which must exist).
   *
   * @param refusal the message when another holder has it
   * @throws StrataException with {@code refusal} if the directory is locked
   */
  public static DirectoryLock acquire(Path dir, String refusal) throws IOException {
    FileChannel ch = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (l == null) {
      ch.close();
      throw new StrataException(refusal);
    }
    return new DirectoryLock(ch, l);
  }

  /** Releases the lock. */
  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
