package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata move-log} moves a store's log: the writes are kept, the new directory holds the
 * log, the old one holds no segment, and later opens use the new directory.
 */
class MoveLogCommandTest {
  @TempDir Path tmp;

  @Test
  void movesAStoresLogWithItsUnflushedWrites() throws Exception {
    Path store = tmp.resolve("s");
    Path oldLog = tmp.resolve("old-wal");
    Path newLog = tmp.resolve("new-wal");
    Path config = tmp.resolve("c.json");
    Files.writeString(config, "{\"log\": {\"durability\": \"sync\", \"dir\": \"" + oldLog
        + "\"}}");
    assertThat(CliTest.run("put", "--dir", store.toString(), "--config", config.toString(), "k",
        "v").code()).isZero();
    // (A configuration naming a new log.dir while the old log holds unflushed writes is refused:
    // LogIdentityTest, with a killed store. move-log replays and flushes them first.)
    CliTest.Result r = CliTest.run("move-log", "--dir", store.toString(), "--to",
        newLog.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains(newLog.toString());
    try (Stream<Path> s = Files.list(oldLog)) {
      assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("wal-"));
    }
    try (Stream<Path> s = Files.list(newLog)) {
      assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("wal-"));
    }
    assertThat(CliTest.run("get", "--dir", store.toString(), "k").out().trim()).isEqualTo("v");
    assertThat(CliTest.run("put", "--dir", store.toString(), "k3", "v3").code()).isZero();
    assertThat(Files.readString(store.resolve("config.json"))).contains(newLog.toString());
  }
}
