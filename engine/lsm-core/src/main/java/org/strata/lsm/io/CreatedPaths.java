package org.strata.lsm.io;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What an open of a new store or dataset created, so that a refused open can remove exactly that
 * and leave the file system as it found it: directories it created (removed with their contents,
 * all of which this open wrote) and, anywhere under a directory that already existed, the files and
 * directories that were not there before (a dataset left half-created by a crash has partition and
 * index directories of its own; a refused open removes what it added inside them too). Not
 * thread-safe; one per open.
 */
public final class CreatedPaths {
  private static final Logger LOG = LogManager.getLogger(CreatedPaths.class);

  private final List<Path> createdRoots = new ArrayList<>();
  private final List<Path> watched = new ArrayList<>();
  private final List<Set<Path>> watchedBefore = new ArrayList<>();
  private final List<Path> kept = new ArrayList<>();

  /**
   * Leaves {@code dir} and everything under it alone from now on, unless it lies inside a
   * directory this open created (which goes whole). A log directory, once its log has been
   * opened: the log's catalogue lists the segment the open created, and removing that segment
   * would leave the log missing a listed segment.
   */
  public void keep(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    for (Path root : createdRoots) {
      if (abs.startsWith(root) && !abs.equals(root)) {
        return; // goes with its created root
      }
    }
    kept.add(abs);
  }

  private boolean isKept(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    for (Path k : kept) {
      if (abs.startsWith(k)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Creates {@code dir} and its missing parents, remembering the topmost directory created.
   *
   * @throws IOException if a directory cannot be created; what was created so far is remembered
   */
  public void createDirectories(Path dir) throws IOException {
    Path abs = dir.toAbsolutePath().normalize();
    Path top = null;
    for (Path p = abs; p != null && !Files.exists(p); p = p.getParent()) {
      top = p;
    }
    if (top == null) {
      Files.createDirectories(abs); // exists: fails clearly if it is not a directory
      return;
    }
    try {
      Files.createDirectories(abs);
    } finally {
      if (Files.isDirectory(top)) {
        createdRoots.add(top);
      }
    }
  }

  /**
   * Remembers every path under the existing directory {@code dir} (symbolic links are not
   * followed); any path found there later counts as created.
   */
  public void watch(Path dir) throws IOException {
    Set<Path> paths = new HashSet<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.forEach(p -> paths.add(dir.relativize(p)));
    }
    watched.add(dir);
    watchedBefore.add(paths);
  }

  /** Removes everything this open created; a failure is logged, never thrown. */
  public void removeAll() {
    for (int i = 0; i < watched.size(); i++) {
      Path dir = watched.get(i);
      try {
        removeNew(dir, dir, watchedBefore.get(i), this);
      } catch (IOException e) {
        LOG.warn("cannot remove what a failed open created in {}: {}", dir, e.toString());
      }
    }
    for (int i = createdRoots.size() - 1; i >= 0; i--) {
      if (isKept(createdRoots.get(i))) {
        continue;
      }
      try {
        deleteRecursively(createdRoots.get(i));
      } catch (IOException e) {
        LOG.warn("cannot remove {}, created by a failed open: {}", createdRoots.get(i),
            e.toString());
      }
    }
  }

  /** Deletes the entries of {@code d} not in {@code before}; descends into the old directories. */
  private static void removeNew(Path root, Path d, Set<Path> before, CreatedPaths paths)
      throws IOException {
    List<Path> entries;
    try (Stream<Path> s = Files.list(d)) {
      entries = s.toList();
    }
    for (Path p : entries) {
      if (paths.isKept(p)) {
        continue;
      }
      if (!before.contains(root.relativize(p))) {
        deleteRecursively(p);
      } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        removeNew(root, p, before, paths);
      }
    }
  }

  private static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (e != null) {
          throw e;
        }
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
