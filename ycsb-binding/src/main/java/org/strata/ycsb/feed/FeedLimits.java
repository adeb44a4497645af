package org.strata.ycsb.feed;

import org.strata.lsm.dataset.FeedParser;

/**
 * What a feed server holds in memory, at most (docs/two-phase.md, "Feed protocol"). Requests: a
 * connection stops reading its socket while {@code waitingLines} lines or {@code waitingLineBytes}
 * bytes of them wait to be applied, and a line longer than {@code maxLineBytes} is rejected
 * as soon as it passes the limit, without being held, and closes its connection. Replies: bytes
 * handed to the network but not yet sent are bounded per connection and in total; a connection
 * whose client does not read waits for room (and stops reading requests) instead of buffering.
 * Connections: at most {@code maxConnections} at a time; one more is refused. So the server's
 * memory for its connections is bounded by {@code maxConnections} times one connection's share
 * (docs/reliability-feed.md).
 *
 * @param maxLineBytes longest request line
 * @param waitingLines a connection stops reading while this many lines wait to be applied
 * @param waitingLineBytes ... or while their bytes reach this many (a longer single line still
 *     waits alone)
 * @param replyBytesPerConnection most unsent reply bytes of one connection; reading stops at half
 * @param replyBytesTotal most unsent reply bytes of all connections together
 * @param maxConnections most connections open at a time; one more is answered with a refusal
 *     and closed
 */
public record FeedLimits(int maxLineBytes, int waitingLines, long waitingLineBytes,
    long replyBytesPerConnection, long replyBytesTotal, int maxConnections) {
  /** Smallest reply bound per connection: room for four chunks of a reply. */
  public static final long MIN_REPLY_BYTES = 4096;
  private static final int MAX_CHUNK = 16 * 1024;

  public FeedLimits {
    require(maxLineBytes >= 1024, "maxLineBytes", maxLineBytes, "at least 1024");
    require(waitingLines >= 1, "waitingLines", waitingLines, "at least 1");
    require(waitingLineBytes >= 1, "waitingLineBytes", waitingLineBytes, "at least 1");
    require(replyBytesPerConnection >= MIN_REPLY_BYTES, "replyBytesPerConnection",
        replyBytesPerConnection, "at least " + MIN_REPLY_BYTES);
    require(replyBytesTotal >= replyBytesPerConnection, "replyBytesTotal", replyBytesTotal,
        "at least replyBytesPerConnection (" + replyBytesPerConnection + ")");
    require(maxConnections >= 1, "maxConnections", maxConnections, "at least 1");
  }

  /**
   * The defaults: 17 MiB lines ({@link FeedParser#MAX_LINE_BYTES}), 1,024 lines or 4 MiB waiting
   * per connection, 1 MiB of unsent replies per connection and 64 MiB in total, 1,024
   * connections.
   */
  public static FeedLimits defaults() {
    return new FeedLimits(FeedParser.MAX_LINE_BYTES, 1024, 4L << 20, 1L << 20, 64L << 20, 1024);
  }

  /** A copy with other reply bounds. */
  public FeedLimits withReplyBytes(long perConnection, long total) {
    return new FeedLimits(maxLineBytes, waitingLines, waitingLineBytes, perConnection, total,
        maxConnections);
  }

  /** A copy with other bounds on waiting request lines. */
  public FeedLimits withWaiting(int lines, long bytes) {
    return new FeedLimits(maxLineBytes, lines, bytes, replyBytesPerConnection, replyBytesTotal,
        maxConnections);
  }

  /** A copy with another line length limit. */
  public FeedLimits withMaxLineBytes(int bytes) {
    return new FeedLimits(bytes, waitingLines, waitingLineBytes, replyBytesPerConnection,
        replyBytesTotal, maxConnections);
  }

  /** A copy with another connection limit. */
  public FeedLimits withMaxConnections(int connections) {
    return new FeedLimits(maxLineBytes, waitingLines, waitingLineBytes, replyBytesPerConnection,
        replyBytesTotal, connections);
  }

  /**
   * Size of the pieces a reply is handed to the network in: a quarter of the bound,
   * at most 16 KiB.
   */
  int replyChunkBytes() {
    return (int) Math.min(MAX_CHUNK, replyBytesPerConnection / 4);
  }

  private static void require(boolean ok, String name, long value, String allowed) {
    if (!ok) {
      throw new IllegalArgumentException("feed limit " + name + " is " + value + "; allowed: "
          + allowed);
    }
  }
}
