package org.strata.lsm.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.NoSuchFileException;
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

  /**
   * For a reader that must change nothing (verification): takes a <em>shared</em> lock on {@code
   * dir}'s lock file if that file exists, through a channel opened for reading only, so it neither
   * creates nor writes a file. A process that has the store open holds the exclusive lock, so the
   * shared one is refused while it runs, and a store cannot be opened while the reader holds it.
   * If there is no lock file, no process has ever opened the directory as a store (opening creates
   * the file before anything else) and there is nothing to exclude: returns null.
   *
   * @throws StrataException with {@code refusal} if another holder has the directory locked
   */
  public static DirectoryLock acquireSharedIfPresent(Path dir, String refusal)
      throws IOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(dir.resolve(FILE), StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      return null;
    }
    FileLock l;
    try {
      l = ch.tryLock(0, Long.MAX_VALUE, true);
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
