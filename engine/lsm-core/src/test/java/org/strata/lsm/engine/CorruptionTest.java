package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.testing.TestStores;

/** Flipping one byte of a component page is detected on read and by verify, never served. */
class CorruptionTest {
  @TempDir Path tmp;

  private Path buildStore() throws Exception {
    Path dir = tmp.resolve("store");
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2)))) {
      for (int i = 0; i < 2000; i++) {
        store.put(b(String.format("key%06d", i)), b("value-" + i + "-" + "x".repeat(40)));
      }
      store.flush();
    }
    return dir;
  }

  private static Path onlyComponent(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> cs = s.filter(p -> p.toString().endsWith(".cmp")).toList();
      assertThat(cs).hasSize(1);
      return cs.get(0);
    }
  }

  private static void flipByte(Path file, long offset) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.flip();
      byte v = b.get(0);
      ch.write(ByteBuffer.wrap(new byte[] {(byte) (v ^ 0x40)}), offset);
    }
  }

  @Test
  void flippedLeafByteFailsTheReadNamingTheFileAndVerifyReportsIt() throws Exception {
    Path dir = buildStore();
    Path component = onlyComponent(dir);
    assertThat(StoreVerifier.verify(dir).ok()).isTrue();
    flipByte(component, 100); // inside the first leaf page, which holds key000000
    var report = StoreVerifier.verify(dir);
    assertThat(report.ok()).isFalse();
    assertThat(report.faults()).anySatisfy(f ->
        assertThat(f).contains(component.toString()).contains("checksum"));
    try (LsmStore store = LsmStore.open(dir, null)) {
      assertThatThrownBy(() -> store.get(b("key000000")))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(component.getFileName().toString())
          .hasMessageContaining("offset 0");
      assertThatThrownBy(() -> {
        try (ScanCursor c = store.scan(null, null)) {
          while (c.hasNext()) {
            c.next();
          }
        }
      }).isInstanceOf(CorruptionException.class);
      // Pages that were not touched are still served.
      assertThat(store.get(b("key001999"))).isPresent();
    }
  }

  @Test
  void corruptFooterFailsOpenWithTheFileNamed() throws Exception {
    Path dir = buildStore();
    Path component = onlyComponent(dir);
    flipByte(component, Files.size(component) - 10);
    assertThatThrownBy(() -> LsmStore.open(dir, null))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(component.getFileName().toString())
        .hasMessageContaining("footer");
    assertThat(StoreVerifier.verify(dir).faults()).anySatisfy(f ->
        assertThat(f).contains(component.getFileName().toString()).contains("footer"));
  }

  @Test
  void everySingleByteFlipInAComponentIsDetectedByVerify() throws Exception {
    Path dir = buildStore();
    Path component = onlyComponent(dir);
    long size = Files.size(component);
    byte[] original = Files.readAllBytes(component);
    java.util.Random rnd = new java.util.Random(42);
    for (int i = 0; i < 60; i++) {
      long off = (long) (rnd.nextDouble() * size);
      flipByte(component, off);
      assertThat(StoreVerifier.verify(dir).ok()).as("flip at %d", off).isFalse();
      Files.write(component, original);
    }
    assertThat(StoreVerifier.verify(dir).ok()).isTrue();
  }
}
