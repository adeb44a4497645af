package org.strata.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Durable file-system steps built of {@link FileIo} steps: an atomic, forced replacement. */
public final class Directories {
  private Directories() {}

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
    atomicRename(io, tmp, file);
  }

  /** Atomically renames {@code from} to {@code to} and forces the directory. */
  public static void atomicRename(FileIo io, Path from, Path to) throws IOException {
    io.rename(from, to);
    io.forceDirectory(to.toAbsolutePath().getParent());
  }
}
