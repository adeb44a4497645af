package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line: one line every ten seconds of the given clock, with the time left. */
class ProgressLineTest {
  @Test
  void aLineEveryTenSecondsWithTheTimeLeftAtThePaceSoFar() {
    AtomicLong now = new AtomicLong(1_000);
    StringWriter text = new StringWriter();
    ProgressLine p = new ProgressLine(new PrintWriter(text), "gen-records", "records",
        1_000_000, now::get);
    p.update(100_000);
    now.addAndGet(9_000_000_000L);
    p.update(200_000);
    assertThat(text.toString()).as("nothing before ten seconds").isEmpty();
    now.addAndGet(1_000_000_000L);
    p.update(250_000);
    assertThat(text.toString()).isEqualTo(
        "gen-records: 250,000 of 1,000,000 records (25%), about 30 s left"
            + System.lineSeparator());
    now.addAndGet(5_000_000_000L);
    p.update(300_000);
    assertThat(text.toString().lines()).as("the next is due ten seconds later").hasSize(1);
    now.addAndGet(5_000_000_000L);
    p.update(1_000_000);
    assertThat(text.toString().lines()).hasSize(2).last().asString()
        .isEqualTo("gen-records: 1,000,000 of 1,000,000 records (100%), about 0 s left");
  }
}
