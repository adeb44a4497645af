package org.strata.lsm.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a refused open removes: exactly what it created, at any depth, and nothing else. */
class CreatedPathsTest {
  @TempDir Path tmp;

  @Test
  void removesWhatWasAddedAnywhereUnderAWatchedDirectoryAndKeepsWhatWasThere() throws Exception {
    Path ds = Files.createDirectories(tmp.resolve("ds/p0/primary"));
    Files.writeString(ds.resolve("config.json.tmp"), "left by a crash");
    Path root = tmp.resolve("ds");
    Files.writeString(root.resolve("old.txt"), "old");
    List<String> before = tree(root);

    CreatedPaths created = new CreatedPaths();
    created.watch(root);
    Files.writeString(root.resolve("new.txt"), "new");                  // top level
    Files.writeString(ds.resolve("LOCK"), "");                          // two levels down
    Files.createDirectories(root.resolve("p0/by_f"));                   // a new directory
    Files.writeString(root.resolve("p0/by_f/LOCK"), "");
    Files.createDirectories(root.resolve("p0/wal"));
    Files.writeString(root.resolve("p0/wal/wal-1.log"), "");
    Path log = tmp.resolve("logs/p0");
    created.createDirectories(log);
    Files.writeString(log.resolve("wal-1.log"), "");
    created.removeAll();

    assertThat(tree(root)).isEqualTo(before);
    assertThat(Files.readString(ds.resolve("config.json.tmp"))).isEqualTo("left by a crash");
    assertThat(tmp.resolve("logs")).doesNotExist();
  }

  @Test
  void aSymbolicLinkIsRemovedNotFollowed() throws Exception {
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("keep.txt"), "keep");
    Path root = Files.createDirectories(tmp.resolve("store"));
    CreatedPaths created = new CreatedPaths();
    created.watch(root);
    Files.createSymbolicLink(root.resolve("link"), outside);
    created.removeAll();

    assertThat(tree(root)).isEmpty();
    assertThat(outside.resolve("keep.txt")).hasContent("keep");
  }

  private static List<String> tree(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> !p.equals(root)).map(p -> root.relativize(p).toString()).sorted()
          .toList();
    }
  }
}
