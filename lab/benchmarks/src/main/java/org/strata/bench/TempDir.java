package org.strata.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A directory in the system temp directory that a benchmark's tear-down deletes. */
final class TempDir implements AutoCloseable {
  private final Path path;

  private TempDir(Path path) {
    this.path = path;
  }

  /** Creates {@code strata-bench-<prefix>-<random>} in the system temp directory. */
  static TempDir create(String prefix) {
    try {
      return new TempDir(Files.createTempDirectory("strata-bench-" + prefix + "-"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp directory for " + prefix, e);
    }
  }

  Path path() {
    return path;
  }

  /** Deletes the directory and everything in it. */
  @Override
  public void close() {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> s = Files.walk(path)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + path, e);
    }
  }
}
