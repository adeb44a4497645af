package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ByteLineReaderTest {
  private static List<String> read(byte[] data, int max, int chunk) throws Exception {
    // A stream that returns at most `chunk` bytes a read, so lines straddle reads.
    InputStream in = new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, chunk));
      }
    };
    List<String> out = new ArrayList<>();
    try (ByteLineReader r = new ByteLineReader(in, max)) {
      ByteLineReader.Line l;
      while ((l = r.next()) != null) {
        out.add(l.tooLong() ? "TOO LONG"
            : new String(l.bytes(), 0, l.length(), StandardCharsets.ISO_8859_1));
      }
    }
    return out;
  }

  @Test
  void splitsOnNewlinesKeepsBytesAndSkipsTooLongLines() throws Exception {
    byte[] data = "ab\r\n\nxyz0123456789\ncd\u00ff\nlast".getBytes(StandardCharsets.ISO_8859_1);
    for (int chunk : new int[] {1, 3, 1 << 16}) {
      assertThat(read(data, 8, chunk)).as("chunk %d", chunk)
          .containsExactly("ab", "", "TOO LONG", "cd\u00ff", "last");
    }
    // Exactly the limit is fine, with or without a '\r'; one byte more is too long.
    assertThat(read("12345678\n12345678\r\n123456789\n".getBytes(StandardCharsets.US_ASCII), 8,
        4)).containsExactly("12345678", "12345678", "TOO LONG");
    assertThat(read(new byte[0], 8, 4)).isEmpty();
    assertThat(read("\n".getBytes(StandardCharsets.US_ASCII), 8, 4)).containsExactly("");
  }
}
