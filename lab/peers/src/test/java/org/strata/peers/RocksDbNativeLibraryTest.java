package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * rocksdbjni resolves from the build's dependencies and loads its native library from its own
 * jar, with nothing installed on the machine: no library path is set for it.
 */
class RocksDbNativeLibraryTest {
  @TempDir Path tmp;

  @Test
  void theNativeLibraryLoadsFromTheJarAndWorks() throws Exception {
    assertThat(System.getProperty("java.library.path", "")).doesNotContain("rocksdb");
    RocksDB.loadLibrary();
    assertThat(RocksDbTarget.version()).isEqualTo(pinnedVersion());
    try (Options o = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(o, tmp.toString())) {
      db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
      assertThat(db.get("k".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo("v".getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The version the jar on the class path is, from its file name (e.g. 11.8.1). */
  private static String pinnedVersion() throws Exception {
    String jar = Path.of(RocksDB.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI()).getFileName().toString();
    assertThat(jar).startsWith("rocksdbjni-");
    return jar.substring("rocksdbjni-".length(), jar.length() - ".jar".length());
  }
}
