package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;

/**
 * A finished output lets go of its writer, whose buffers a merge would otherwise keep through
 * all its later outputs (and every young collection in between copy them); what a merge asks of
 * a finished output (its page count, installing it) still answers, and writing to it is refused.
 */
class ComponentOutputTest {
  @TempDir Path dir;

  private ComponentFiles files() {
    return new ComponentFiles(dir, null, FileIo.standard(), new PageCache(1 << 20),
        IoThrottle.unlimited(), 0, 4096, level -> 0.01, false, Clock.system());
  }

  @Test
  void aFinishedOutputDropsItsWriterAndKeepsItsPageCount() throws Exception {
    ComponentFiles files = files();
    ComponentFiles.Output out = files.create(7, 1, 1, 1, 1, false);
    byte[] value = new byte[100];
    for (int i = 0; i < 2_000; i++) {
      out.add(String.format("key%06d", i).getBytes(StandardCharsets.UTF_8), value);
    }
    assertThat(out.holdsWriter()).isTrue();
    assertThat(out.bytesProduced()).isPositive();
    out.finish();
    assertThat(out.holdsWriter()).isFalse();
    DiskComponent c = out.install();
    try {
      assertThat(out.pageCount()).isEqualTo(c.meta().pageCount()).isGreaterThan(50);
      assertThat(c.meta().entryCount()).isEqualTo(2_000);
    } finally {
      c.release();
    }
    assertThatThrownBy(() -> out.add("key999999".getBytes(StandardCharsets.UTF_8), value))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already finished");
    assertThatThrownBy(out::bytesProduced).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anUnfinishedOutputIsDiscardedWithItsWriter() throws Exception {
    ComponentFiles files = files();
    ComponentFiles.Output out = files.create(8, 1, 1, 1, 1, false);
    out.add("a".getBytes(StandardCharsets.UTF_8), new byte[10]);
    Path tmp = out.temporaryPath();
    assertThat(tmp).exists();
    out.discard();
    assertThat(tmp).doesNotExist();
  }
}
