package org.strata.ycsb.feed;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.io.OutputStream;

/**
 * A connection's reply stream: collects bytes into chunks and hands each full chunk (and whatever
 * is collected at {@link #flush()}) to Netty, after reserving room in the server's {@link
 * ReplyBudget}, so a reply of any length is sent piece by piece as the client reads it and is
 * never buffered whole. Used by the connection's worker thread only; it may block there while the
 * client does not read. Once the connection is closed, bytes are dropped.
 */
final class ReplyWriter extends OutputStream {
  private final ChannelHandlerContext ctx;
  private final ReplyBudget budget;
  private final ReplyBudget.Account account;
  private final Runnable onSent;
  private final byte[] chunk;
  private int length;

  /**
   * @param onSent runs on the event loop after each chunk's write completed (or failed)
   */
  ReplyWriter(ChannelHandlerContext ctx, ReplyBudget budget, ReplyBudget.Account account,
      int chunkBytes, Runnable onSent) {
    this.ctx = ctx;
    this.budget = budget;
    this.account = account;
    this.onSent = onSent;
    this.chunk = new byte[chunkBytes];
  }

  @Override
  public void write(int b) {
    if (length == chunk.length) {
      send();
    }
    chunk[length++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    while (len > 0) {
      if (length == chunk.length) {
        send();
      }
      int n = Math.min(len, chunk.length - length);
      System.arraycopy(b, off, chunk, length, n);
      length += n;
      off += n;
      len -= n;
    }
  }

  /** Hands what is collected to Netty, waiting for room first. */
  @Override
  public void flush() {
    send();
  }

  /**
   * Hands the collected bytes over in as few pieces as the budget allows (one, unless the chunk
   * is bigger than the room this connection can get while others hold theirs).
   */
  private void send() {
    int n = length;
    length = 0;
    for (int off = 0; off < n; ) {
      int granted = budget.reserve(account, n - off);
      if (granted == 0) {
        return; // the connection or server is gone
      }
      ByteBuf buf = ctx.alloc().buffer(granted).writeBytes(chunk, off, granted);
      ctx.writeAndFlush(buf).addListener(f -> {
        budget.release(account, granted);
        onSent.run();
      });
      off += granted;
    }
  }
}
