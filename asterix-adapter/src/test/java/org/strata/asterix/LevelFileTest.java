package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The level file: round trip, and damaged files read as "nothing saved" or lose only bad lines. */
class LevelFileTest {
  @TempDir
  Path dir;

  @Test
  void roundTripsAndReplacesWhole() {
    LevelFile f = new LevelFile(dir);
    assertThat(f.read()).isEmpty();
    f.write(Map.of("0_2", new LevelFile.Entry(2, 3000), "3_3", new LevelFile.Entry(0, 1000)));
    assertThat(f.read()).containsEntry("0_2", new LevelFile.Entry(2, 3000))
        .containsEntry("3_3", new LevelFile.Entry(0, 1000)).hasSize(2);
    f.write(Map.of("0_3", new LevelFile.Entry(2, 4000)));
    assertThat(f.read()).containsOnlyKeys("0_3");
    assertThat(dir.resolve(LevelFile.NAME + ".tmp")).doesNotExist();
  }

  @Test
  void damagedFilesAreReadAsFarAsTheyAreValid() throws Exception {
    LevelFile f = new LevelFile(dir);
    Files.write(f.path(), new byte[] {0, 1, 2, (byte) 0xff});
    assertThat(f.read()).isEmpty();
    Files.writeString(f.path(), LevelFile.HEADER + "\n0_2 2 3000\n3_3 x 1\n4_4 1\n5_5 1 10\n",
        StandardCharsets.UTF_8);
    assertThat(f.read()).containsOnlyKeys("0_2", "5_5");
  }
}
