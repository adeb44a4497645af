package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;

/**
 * {@code partitioned-leveling} with {@code trivial-move} on the engine: keys written in ascending
 * blocks make level-1 files with nothing under them at level 2, which move down without a rewrite;
 * every key reads back its last value before and after a reopen, each level stays one run of files
 * in key order, and the history records the moves.
 */
class TrivialMoveEngineTest {
  @TempDir Path dir;

  private static StoreConfig config() {
    return StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("partitioned-leveling", Map.of("file-size", "64KB",
            "level1-size", "128KB", "size-ratio", "4", "l0-trigger", "2", "trivial-move",
            "true")))
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(32 << 10, 2))
        .withDurability(Durability.NONE);
  }

  private static byte[] key(int k) {
    return String.format("k%08d", k).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int k, int version) {
    byte[] v = new byte[200];
    new Random(k * 31L + version).nextBytes(v);
    return v;
  }

  @Test
  void filesWithNothingUnderThemMoveDownAndEveryKeyReadsBack() throws Exception {
    int keys = 6_000;
    int[] version = new int[keys];
    Random random = new Random(5);
    try (LsmStore s = LsmStore.open(dir, config())) {
      // ascending blocks of keys: each block's flushes cover a key range no earlier block did
      for (int k = 0; k < keys; k++) {
        s.put(key(k), value(k, 0));
        if (k % 10 == 9) { // and some overwrites of earlier keys, so merges happen as well
          int old = random.nextInt(k + 1);
          version[old]++;
          s.put(key(old), value(old, version[old]));
        }
      }
      s.flush();
      s.awaitMerges();
      checkLevels(s.runs());
      checkValues(s, version);
    }
    List<String> history = Files.readAllLines(dir.resolve("HISTORY"));
    assertThat(history).anyMatch(line -> line.contains("\"event\":\"move\""));
    assertThat(history).anyMatch(line -> line.contains("\"event\":\"merge\""));
    try (LsmStore s = LsmStore.open(dir, config())) {
      checkLevels(s.runs());
      checkValues(s, version);
    }
  }

  /** Every key reads back the value of its last write. */
  private static void checkValues(LsmStore s, int[] version) {
    for (int k = 0; k < version.length; k++) {
      assertThat(s.get(key(k)).orElse(null)).as("key %d", k).isEqualTo(value(k, version[k]));
    }
  }

  /** Each level above 0 is one run whose files are in key order and do not overlap. */
  private static void checkLevels(List<RunInfo> runs) {
    List<Integer> levels = new ArrayList<>();
    for (RunInfo r : runs) {
      if (r.level() == 0) {
        continue;
      }
      assertThat(levels).as("one run per level").doesNotContain(r.level());
      levels.add(r.level());
      byte[] last = null;
      for (ComponentInfo c : r.components()) {
        if (last != null) {
          assertThat(java.util.Arrays.compareUnsigned(last, c.minKey()))
              .as("files of level %d in key order, apart", r.level()).isLessThan(0);
        }
        last = c.maxKey();
      }
    }
  }
}
