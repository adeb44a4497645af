package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FiguresCommandTest {
  @TempDir Path tmp;

  @Test
  void drawsThePngFiles() throws Exception {
    CliTest.Result r = CliTest.run("figures", "--out", tmp.toString(), "--flushes", "300",
        "--k", "5");
    assertThat(r.code()).as(r.err()).isZero();
    for (String f : new String[] {"mao-fig2-k5.png", "mao-tradeoff.png"}) {
      byte[] png = Files.readAllBytes(tmp.resolve(f));
      assertThat(png.length).isGreaterThan(1000);
      assertThat(png[1]).isEqualTo((byte) 'P'); // PNG signature
      assertThat(png[2]).isEqualTo((byte) 'N');
    }
    assertThat(CliTest.run("figures", "--out", tmp.toString(), "--flushes", "3").code())
        .isEqualTo(2);
  }
}
