package org.strata.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Durable file-system steps: forcing a directory and atomically renaming a forced file. */
public final class Directories {
  private Directories() {}

  /** Forces a directory's entries (creations, renames, deletions) to stable storage. */
  public static void force(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems refuse to open directories; there is nothing more we can force then.
      if (!Files.isDirectory(dir)) {
        throw e;
      }
    }
  }

  /**
   * Writes {@code data} to {@code file} so that it appears whole or not at all: into {@code
   * <file>.tmp}, forced, then atomically renamed over {@code file} (the directory forced).
   */
  public static void writeAtomically(FileIo io, Path file, ByteBuffer... data)
      throws IOException {
    writeAtomically(io, file, () -> { }, data);
  }

  /**
   * As {@link #writeAtomically(FileIo, Path, ByteBuffer...)}, running {@code beforeRename} between
   * forcing the temporary file and the rename (a crash point).
   */
  public static void writeAtomically(FileIo io, Path file, Runnable beforeRename,
      ByteBuffer... data) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (WritableFile f = io.create(tmp)) {
      for (ByteBuffer b : data) {
        f.write(b);
      }
      f.force();
    } catch (IOException e) {
      // Name the file: an error such as a full disk does not.
      throw new IOException("cannot write " + tmp + ": " + e.getMessage(), e);
    }
    beforeRename.run();
    atomicRename(tmp, file);
  }

  /** Atomically renames {@code from} to {@code to} and forces the directory. */
  public static void atomicRename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    force(to.toAbsolutePath().getParent());
  }
}
