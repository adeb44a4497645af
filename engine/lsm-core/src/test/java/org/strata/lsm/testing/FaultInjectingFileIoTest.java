package org.strata.lsm.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.ReadableFile;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.testing.FaultInjectingFileIo.Failure;

/** The fault injector fails exactly the steps its rules choose, the way it says. */
class FaultInjectingFileIoTest {
  @TempDir Path tmp;

  private static ByteBuffer bytes(int n) {
    return ByteBuffer.wrap(new byte[n]);
  }

  @Test
  void aShortWriteWritesHalfAndFailsTheNthWriteOnly() throws IOException {
    FaultInjectingFileIo io = new FaultInjectingFileIo()
        .failNth(FileOp.WRITE, FileKind.LOG_SEGMENT, 2, Failure.SHORT_WRITE);
    Path f = tmp.resolve("wal-00000000000000000001.log");
    try (WritableFile w = io.create(f)) {
      w.write(bytes(10));
      ByteBuffer second = bytes(10);
      assertThatThrownBy(() -> w.write(second)).isInstanceOf(IOException.class)
          .hasMessageContaining(FaultInjectingFileIo.IO_ERROR)
          .hasMessageContaining("wal-00000000000000000001.log");
      assertThat(second.remaining()).isEqualTo(5);
      w.write(bytes(10));
    }
    assertThat(Files.size(f)).isEqualTo(25);
    assertThat(io.injected()).isEqualTo(1);
    assertThat(io.events()).extracting(IoEvent::op).containsExactly(FileOp.CREATE,
        FileOp.WRITE, FileOp.WRITE, FileOp.WRITE);
    assertThat(io.events().get(2).injected()).isTrue();
  }

  @Test
  void aFullDiskFailsWithTheRealMessageAndAnErrorWritesNothing() throws IOException {
    Path f = tmp.resolve("000000000001.cmp.tmp");
    FaultInjectingFileIo full = new FaultInjectingFileIo()
        .failNth(FileOp.WRITE, FileKind.COMPONENT_TMP, 1, Failure.ENOSPC);
    try (WritableFile w = full.create(f)) {
      assertThatThrownBy(() -> w.write(bytes(8))).isInstanceOf(IOException.class)
          .hasMessage("No space left on device");
    }
    assertThat(Files.size(f)).isEqualTo(4);
    FaultInjectingFileIo broken = new FaultInjectingFileIo()
        .failNth(FileOp.WRITE, FileKind.COMPONENT_TMP, 1, Failure.ERROR);
    try (WritableFile w = broken.create(f)) {
      assertThatThrownBy(() -> w.write(bytes(8))).isInstanceOf(IOException.class);
    }
    assertThat(Files.size(f)).isZero();
  }

  @Test
  void aNamePatternFailsOnlyMatchingFilesUntilHealed() throws IOException {
    FaultInjectingFileIo io = new FaultInjectingFileIo()
        .failMatching(Pattern.compile("MANIFEST.*"), EnumSet.of(FileOp.RENAME), Failure.ERROR);
    Path m = Files.writeString(tmp.resolve("MANIFEST.tmp"), "m");
    Path c = Files.writeString(tmp.resolve("config.json.tmp"), "c");
    io.rename(c, tmp.resolve("config.json"));
    assertThatThrownBy(() -> io.rename(m, tmp.resolve("MANIFEST")))
        .hasMessageContaining("RENAME of MANIFEST.tmp");
    assertThatThrownBy(() -> io.rename(m, tmp.resolve("MANIFEST"))).isInstanceOf(
        IOException.class);
    assertThat(tmp.resolve("MANIFEST")).doesNotExist();
    io.heal();
    io.rename(m, tmp.resolve("MANIFEST"));
    assertThat(tmp.resolve("MANIFEST")).exists();
    assertThat(io.injected()).isEqualTo(2);
  }

  @Test
  void aPointFailsInItsPhaseAndALastingFaultFollowsItsStepIntoLaterPhases() throws IOException {
    Path seg = Files.write(tmp.resolve("wal-00000000000000000001.log"), new byte[100]);
    FaultInjectingFileIo io = new FaultInjectingFileIo()
        .failAt(new IoPoint("reopen", FileOp.READ_ALL, FileKind.LOG_SEGMENT), 2, Failure.ERROR,
            true);
    io.phase("open");
    io.readAll(seg);
    io.readAll(seg);
    io.phase("reopen");
    io.readAll(seg); // the first in the phase
    assertThatThrownBy(() -> io.readAll(seg)).hasMessageContaining("READ_ALL");
    io.phase("get");
    assertThatThrownBy(() -> io.readAll(seg)).isInstanceOf(IOException.class); // it lasts
    Path manifest = Files.writeString(tmp.resolve("MANIFEST"), "x");
    assertThat(io.readAll(manifest)).hasSize(1); // another file kind is not affected
    io.heal();
    assertThat(io.readAll(seg)).hasSize(100);
    assertThat(io.points()).containsExactly(
        new IoPoint("open", FileOp.READ_ALL, FileKind.LOG_SEGMENT),
        new IoPoint("reopen", FileOp.READ_ALL, FileKind.LOG_SEGMENT),
        new IoPoint("get", FileOp.READ_ALL, FileKind.LOG_SEGMENT),
        new IoPoint("get", FileOp.READ_ALL, FileKind.MANIFEST));
  }

  @Test
  void componentReadsAndDirectoryStepsCanFail() throws IOException {
    Path cmp = Files.write(tmp.resolve("000000000007.cmp"), new byte[64]);
    FaultInjectingFileIo io = new FaultInjectingFileIo()
        .failNth(FileOp.READ, FileKind.COMPONENT, 2, Failure.ERROR)
        .failNth(FileOp.FORCE_DIRECTORY, FileKind.DIRECTORY, 1, Failure.ERROR)
        .failNth(FileOp.DELETE, FileKind.COMPONENT, 1, Failure.ERROR);
    try (ReadableFile r = io.openForRead(cmp)) {
      assertThat(r.read(bytes(16), 0)).isEqualTo(16);
      assertThatThrownBy(() -> r.read(bytes(16), 16)).hasMessageContaining("READ of");
      assertThat(r.read(bytes(16), 32)).isEqualTo(16);
    }
    assertThatThrownBy(() -> io.forceDirectory(tmp)).hasMessageContaining("FORCE_DIRECTORY");
    io.forceDirectory(tmp);
    assertThatThrownBy(() -> io.delete(cmp)).hasMessageContaining("DELETE");
    assertThat(cmp).exists();
    assertThat(io.delete(cmp)).isTrue();
  }

  @Test
  void randomFaultsRepeatForTheSameSeed() throws IOException {
    long seed = 42;
    System.out.println("FaultInjectingFileIoTest seed " + seed);
    assertThat(randomFailures(seed)).isEqualTo(randomFailures(seed))
        .contains(true).contains(false);
  }

  private List<Boolean> randomFailures(long seed) throws IOException {
    FaultInjectingFileIo io = new FaultInjectingFileIo()
        .failRandomly(seed, 0.3, Set.of(FileOp.FORCE), Failure.ERROR);
    List<Boolean> failed = new ArrayList<>();
    try (WritableFile w = io.create(tmp.resolve("r-" + seed))) {
      for (int i = 0; i < 40; i++) {
        try {
          w.force();
          failed.add(false);
        } catch (IOException e) {
          failed.add(true);
        }
      }
    }
    return failed;
  }

  @Test
  void failNextFailsTheNextStepsOnFilesWithTheSuffixWithTheMessageGiven() throws IOException {
    FaultInjectingFileIo io = new FaultInjectingFileIo()
        .failNext(FileOp.CREATE, ".log", 1, "injected")
        .failNext(FileOp.WRITE, ".cmp.tmp", 2, "No space left on device")
        .failNext(FileOp.FORCE, ".cmp.tmp", 1, "injected");
    Path log = tmp.resolve("wal-00000000000000000001.log");
    assertThatThrownBy(() -> io.create(log)).isInstanceOf(IOException.class)
        .hasMessage("injected (create failure on wal-00000000000000000001.log)");
    assertThat(log).doesNotExist();
    io.create(log).close();
    Path other = tmp.resolve("000000000001.cmp");
    Path component = tmp.resolve("000000000001.cmp.tmp");
    try (WritableFile o = io.create(other); WritableFile w = io.create(component)) {
      o.write(bytes(8)); // another suffix: not counted
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> w.write(bytes(8))).isInstanceOf(IOException.class)
            .hasMessage("No space left on device (write failure on 000000000001.cmp.tmp)");
      }
      w.write(bytes(8));
      assertThatThrownBy(w::force).hasMessage("injected (force failure on 000000000001.cmp.tmp)");
      w.force();
      // A new count replaces what is left; 0 lets the steps through again.
      io.failNext(FileOp.WRITE, ".cmp.tmp", 5, "injected");
      assertThatThrownBy(() -> w.write(bytes(8))).isInstanceOf(IOException.class);
      io.failNext(FileOp.WRITE, ".cmp.tmp", 0, "injected");
      w.write(bytes(8));
      io.failNext(FileOp.WRITE, ".cmp.tmp", 5, "injected");
      io.heal();
      w.write(bytes(8));
    }
    assertThat(Files.size(other)).isEqualTo(8);
    assertThat(Files.size(component)).isEqualTo(24); // a failed step writes nothing
    assertThat(io.injected()).isEqualTo(5);
  }

  @Test
  void listenersSeeEveryWriteThatWentThroughAndTheForcesOfFilesWithTheSuffix()
      throws IOException {
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false)
        .failNext(FileOp.WRITE, ".log", 1, "injected")
        .failNext(FileOp.FORCE, ".log", 1, "injected");
    List<String> seen = new ArrayList<>();
    io.onWrite((p, n) -> seen.add("write " + p.getFileName() + " " + n));
    io.onForce(".log", p -> seen.add("force " + p.getFileName()));
    try (WritableFile log = io.create(tmp.resolve("wal-00000000000000000001.log"));
        WritableFile cmp = io.create(tmp.resolve("000000000001.cmp"))) {
      assertThatThrownBy(() -> log.write(bytes(3))).isInstanceOf(IOException.class);
      log.write(bytes(4));
      cmp.write(bytes(5));
      assertThatThrownBy(log::force).isInstanceOf(IOException.class);
      log.force();
      cmp.force();
    }
    assertThat(seen).containsExactly("write wal-00000000000000000001.log 4",
        "write 000000000001.cmp 5", "force wal-00000000000000000001.log");
    assertThat(io.events()).isEmpty();
  }

}
