package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.twophase.GeneratedRecord;
import org.strata.twophase.PhaseSetup;
import org.strata.twophase.RecordShape;
import org.strata.twophase.SystemUnderTest;
import org.strata.twophase.TargetStats;

/**
 * The RocksDB target reads back every key it was given, with the last value written, after
 * flushes, compactions, a close and a reopen of a copy (seeded; prints its seed).
 */
class RocksDbTargetTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"leveled", "universal"})
  void readsBackEveryKeyItWasGiven(String compaction) throws Exception {
    long seed = 7 + compaction.length();
    System.out.println("seed " + seed);
    StoreConfig store = StoreConfig.defaults()
        .withMemoryComponent(MemoryComponentConfig.of(64 << 10, 2))
        .withIo(IoConfig.of(8 << 20, 256 << 10, 4096));
    RocksDbTarget target = new RocksDbTarget("rocksdb-" + compaction,
        new RocksDbMapping(store, compaction), 64 << 10);
    RecordShape shape = new RecordShape(4, 100, 3000);
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, byte[]> expected = new HashMap<>();
    Path dir = tmp.resolve("db");
    Files.createDirectories(dir);
    try (SystemUnderTest db = target.open(dir, new PhaseSetup(PhaseSetup.Kind.LOAD, null,
        null))) {
      for (int i = 0; i < 6000; i++) {
        GeneratedRecord r = new GeneratedRecord(RecordShape.key(random.nextLong(3000)),
            shape.fields(random));
        db.write(r);
        expected.put(r.key(), r.valueBytes());
      }
      db.flush();
      db.awaitMerges();
      TargetStats s = db.stats();
      assertThat(s.diskComponents()).isPositive();
      assertThat(s.bytesFlushed()).isPositive();
      assertThat(s.spaceBytes()).isPositive();
      assertThat(s.shape()).startsWith("files per level: L");
    }
    Path copy = tmp.resolve("copy");
    try (Stream<Path> files = Files.list(dir)) {
      Files.createDirectories(copy);
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!f.getFileName().toString().equals("LOCK")) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    }
    try (SystemUnderTest db = target.open(copy, new PhaseSetup(PhaseSetup.Kind.RUNNING, null,
        null))) {
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertThat(db.read(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      }
      assertThat(db.read(RecordShape.key(3001))).isNull();
    }
  }
}
