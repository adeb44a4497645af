package org.strata.ycsb.feed;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Cuts a connection's input into lines, as Netty's {@code LineBasedFrameDecoder} with fail-fast
 * does (a line ends at {@code \n}, and a {@code \r} before it is dropped too), but holds the line
 * being received on the heap in pieces of exactly the bytes received, so what it holds is known to
 * the byte ({@link #partialBytes()}) and counted in the server's {@link InputBudget}; a buffer of
 * Netty's never outlives the read that filled it. A line longer than the limit is refused as soon
 * as it passes it, newline or not. Used on the connection's event loop only; {@link
 * #partialBytes()} may be read from any thread.
 */
final class LineFramer {
  private final int maxLineBytes;
  private final List<byte[]> parts = new ArrayList<>();
  private volatile long partialBytes; // written on the event loop only

  LineFramer(int maxLineBytes) {
    this.maxLineBytes = maxLineBytes;
  }

  /** Bytes of the line being received (received, no newline yet). */
  long partialBytes() {
    return partialBytes;
  }

  /**
   * Takes every readable byte of {@code buf}: each line completed goes to {@code sink}, in order,
   * without its line end; the rest is kept as the line being received. Returns false, having
   * dropped the long line and the rest of {@code buf}, as soon as a line is longer than the limit;
   * the lines before it went to {@code sink}.
   */
  boolean take(ByteBuf buf, Consumer<byte[]> sink) {
    while (buf.isReadable()) {
      int from = buf.readerIndex();
      int eol = buf.indexOf(from, buf.writerIndex(), (byte) '\n');
      if (eol < 0) {
        int n = buf.readableBytes();
        if (partialBytes + n > maxLineBytes) {
          buf.skipBytes(n);
          discard();
          return false;
        }
        byte[] part = new byte[n];
        buf.readBytes(part);
        parts.add(part);
        partialBytes += n;
        return true;
      }
      int n = eol - from; // bytes of this buffer before the newline
      boolean cr = n > 0 ? buf.getByte(eol - 1) == '\r'
          : partialBytes > 0 && lastPartByte() == '\r';
      long length = partialBytes + n - (cr ? 1 : 0);
      if (length > maxLineBytes) {
        buf.skipBytes(buf.readableBytes());
        discard();
        return false;
      }
      byte[] line = new byte[(int) length];
      int at = 0;
      for (byte[] p : parts) {
        int k = (int) Math.min(p.length, length - at);
        System.arraycopy(p, 0, line, at, k);
        at += k;
      }
      buf.getBytes(from, line, at, (int) length - at);
      buf.readerIndex(eol + 1);
      sink.accept(line); // counted as waiting before it stops counting as partial
      parts.clear();
      partialBytes = 0;
    }
    return true;
  }

  /** Drops the line being received (a cut line: never applied). */
  void discard() {
    parts.clear();
    partialBytes = 0;
  }

  private byte lastPartByte() {
    byte[] p = parts.get(parts.size() - 1);
    return p[p.length - 1];
  }
}
