package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;

/** A flush or merge output forces at least once per force-bytes written, and at the end. */
class PeriodicForceTest {
  @TempDir Path tmp;

  @Test
  void forcesEveryForceBytesAndAtTheEnd() throws Exception {
    List<Long> forcedAt = new ArrayList<>();
    long[] written = {0};
    WritableFile real = FileIo.standard().create(tmp.resolve("c.cmp"));
    WritableFile counting = new WritableFile() {
      @Override
      public void write(ByteBuffer buf) throws IOException {
        written[0] += buf.remaining();
        real.write(buf);
      }

      @Override
      public void force() throws IOException {
        forcedAt.add(written[0]);
        real.force();
      }

      @Override
      public long size() throws IOException {
        return real.size();
      }

      @Override
      public void close() throws IOException {
        real.close();
      }
    };
    long forceBytes = 1 << 20;
    try (ComponentWriter w = new ComponentWriter(counting, IoThrottle.unlimited(), forceBytes, 4096,
        0.01, 1, 1, 1, 0)) {
      byte[] value = new byte[1000];
      for (int i = 0; i < 10_000; i++) {
        w.add(String.format("k%08d", i).getBytes(), value);
      }
      w.finish();
    }
    assertThat(written[0]).isGreaterThan(9 * forceBytes);
    assertThat(forcedAt.get(forcedAt.size() - 1)).isEqualTo(written[0]);
    long previous = 0;
    for (long at : forcedAt) {
      // Writes reach the file in chunks of at most 256 KB, so a force follows within one chunk.
      assertThat(at - previous).isLessThanOrEqualTo(forceBytes + 256 * 1024);
      previous = at;
    }
    assertThat(forcedAt.size()).isGreaterThanOrEqualTo((int) (written[0] / (forceBytes
        + 256 * 1024)));
  }
}
