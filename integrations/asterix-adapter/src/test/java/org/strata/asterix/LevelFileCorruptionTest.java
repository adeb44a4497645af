package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.testing.FlipTally;
import org.strata.lsm.testing.FlipTally.Outcome;

/**
 * Corruption campaign over the adapter's level file: one byte of a saved level file XORed with a
 * random non-zero mask per trial, then read back. A read is correct if it gives exactly what was
 * written (harmless), detected if it refuses the whole file (every component starts at level 0,
 * the designed fallback, and a warning says so), and served wrong otherwise: a level, a flushed
 * byte count or the largest flush silently changed, or only some entries dropped (which would
 * mix saved levels with fallback ones). Prints its seed; rerun with {@code -Dcorruption.seed=N},
 * change the number of trials with {@code -Dcorruption.level.trials=N}.
 */
class LevelFileCorruptionTest {
  @TempDir Path dir;

  @Test
  void noSingleByteFlipInTheLevelFileIsReadAsOtherLevels() throws Exception {
    long seed = Long.getLong("corruption.seed", 20_2026L);
    int trials = Integer.getInteger("corruption.level.trials", 300);
    System.out.println("LevelFileCorruptionTest seed " + seed + " (rerun: -Dcorruption.seed="
        + seed + ")");
    Random rnd = new Random(seed);
    Map<String, LevelFile.Entry> entries = new LinkedHashMap<>();
    for (int i = 0; i < 12; i++) {
      entries.put(i * 3 + "_" + (i * 3 + 2), new LevelFile.Entry(rnd.nextInt(5),
          1000 + rnd.nextInt(1_000_000)));
    }
    long largest = 4096 + rnd.nextInt(1 << 20);
    LevelFile file = new LevelFile(dir);
    file.write(entries, largest);
    LevelFile.Saved written = file.read();
    assertThat(written).isEqualTo(new LevelFile.Saved(entries, largest));
    byte[] pristine = Files.readAllBytes(file.path());
    FlipTally tally = new FlipTally();
    for (int t = 0; t < trials; t++) {
      int offset = rnd.nextInt(pristine.length);
      int mask = 1 + rnd.nextInt(255);
      Files.write(file.path(), pristine);
      FlipTally.flip(file.path(), offset, mask);
      LevelFile.Saved read = file.read();
      Outcome o = read.equals(written) ? Outcome.HARMLESS
          : read.equals(LevelFile.Saved.NOTHING) ? Outcome.DETECTED : Outcome.SERVED_WRONG;
      String what = String.format("%s offset %d mask 0x%02x", LevelFile.NAME, offset, mask);
      if (o == Outcome.SERVED_WRONG) {
        System.out.println("served wrong: " + what + ": read " + read);
      }
      tally.add("LEVEL_FILE", o, what);
    }
    System.out.println("LevelFileCorruptionTest, seed " + seed + "\n" + tally.table());
    assertThat(tally.trials()).isEqualTo(trials);
    assertThat(tally.count(Outcome.DETECTED)).as("the detector finds something").isPositive();
    assertThat(tally.badTrials()).as("served-wrong trials, seed %d", seed).isEmpty();
  }
}
