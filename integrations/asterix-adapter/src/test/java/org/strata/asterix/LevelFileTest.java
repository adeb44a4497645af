package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The level file: round trip (entries and the largest flush), files of the earlier formats, and
 * damaged files read as "nothing saved" (or, in the unchecked second format, lose only bad lines).
 */
class LevelFileTest {
  @TempDir
  Path dir;

  @Test
  void roundTripsAndReplacesWhole() {
    LevelFile f = new LevelFile(dir);
    assertThat(f.read()).isEqualTo(LevelFile.Saved.NOTHING);
    f.write(Map.of("0_2", new LevelFile.Entry(2, 3000), "3_3", new LevelFile.Entry(0, 1000)),
        1200);
    assertThat(f.read().entries()).containsEntry("0_2", new LevelFile.Entry(2, 3000))
        .containsEntry("3_3", new LevelFile.Entry(0, 1000)).hasSize(2);
    assertThat(f.read().largestFlush()).isEqualTo(1200);
    f.write(Map.of("0_3", new LevelFile.Entry(2, 4000)), 1300);
    assertThat(f.read().entries()).containsOnlyKeys("0_3");
    assertThat(f.read().largestFlush()).isEqualTo(1300);
    assertThat(dir.resolve(LevelFile.NAME + ".tmp")).doesNotExist();
  }

  @Test
  void damagedFilesOfTheSecondFormatAreReadAsFarAsTheyAreValid() throws Exception {
    LevelFile f = new LevelFile(dir);
    Files.write(f.path(), new byte[] {0, 1, 2, (byte) 0xff});
    assertThat(f.read()).isEqualTo(LevelFile.Saved.NOTHING);
    Files.writeString(f.path(), LevelFile.HEADER_2 + "\nlargest-flush 9x\n0_2 2 3000\n3_3 x 1\n"
        + "4_4 1\n5_5 1 10\n", StandardCharsets.UTF_8);
    assertThat(f.read().entries()).containsOnlyKeys("0_2", "5_5");
    assertThat(f.read().largestFlush()).isZero();
  }

  @Test
  void readsTheFirstFormatWithoutALargestFlush() throws Exception {
    LevelFile f = new LevelFile(dir);
    Files.writeString(f.path(), LevelFile.HEADER_1 + "\n0_2 2 3000\n", StandardCharsets.UTF_8);
    assertThat(f.read()).isEqualTo(new LevelFile.Saved(Map.of("0_2", new LevelFile.Entry(2, 3000)),
        0));
  }
}
