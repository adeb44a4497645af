package org.strata.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads newline-terminated lines from a stream as bytes, so the caller decodes each one strictly
 * and can reject a line that is not UTF-8 by its number (a {@code Reader} would have replaced the
 * bad bytes with U+FFFD). A line ends at {@code \n}; a {@code \r} before it is dropped, and the
 * last line may lack the {@code \n}. A line longer than the limit is skipped to its end and
 * reported as too long rather than held in memory.
 */
final class ByteLineReader implements Closeable {
  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int end;
  private byte[] line = new byte[256];

  /** One line: its bytes are {@code bytes[0, length)}, valid until the next read. */
  record Line(byte[] bytes, int length, boolean tooLong) {}

  ByteLineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** The next line, or null at the end of the stream. */
  Line next() throws IOException {
    int length = 0;
    long seen = 0;
    boolean any = false;
    while (true) {
      if (pos == end) {
        end = in.read(buf);
        pos = 0;
        if (end <= 0) {
          end = 0;
          return any ? finish(length, seen) : null;
        }
      }
      any = true;
      int start = pos;
      while (pos < end && buf[pos] != '\n') {
        pos++;
      }
      int n = pos - start;
      seen += n;
      if (seen <= maxLineBytes + 1L) { // + 1: room for a '\r' before the '\n'
        if (length + n > line.length) {
          line = Arrays.copyOf(line, Math.max(length + n, Math.min(line.length * 2,
              maxLineBytes + 1)));
        }
        System.arraycopy(buf, start, line, length, n);
        length += n;
      }
      if (pos < end) {
        pos++; // the '\n'
        return finish(length, seen);
      }
    }
  }

  private Line finish(int length, long seen) {
    long bytes = seen;
    if (length > 0 && length == seen && line[length - 1] == '\r') {
      length--;
      bytes--;
    }
    if (bytes > maxLineBytes) {
      return new Line(line, 0, true);
    }
    return new Line(line, length, false);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
