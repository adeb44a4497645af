package org.strata.ycsb.feed;

import org.strata.lsm.dataset.FeedParser;

/**
 * What a feed server holds in memory, at most (docs/two-phase.md, "Feed protocol";
 * docs/reliability-feed.md). Requests: a connection stops reading its socket while {@code
 * waitingLines} lines or {@code waitingLineBytes} bytes of them wait to be applied, and a line
 * longer than {@code maxLineBytes} is rejected as soon as it passes the limit, without being held,
 * and closes its connection. All connections together hold at most {@code maxBufferedBytes} of
 * request lines (being received, waiting or being applied, plus one read in progress each): every
 * connection has {@link #INPUT_SHARE_BYTES} of it to itself, the rest is cut into slots of one
 * longest line each for connections that need more, and a connection that cannot get room is not
 * read until some frees. Replies: bytes handed to the network but not
 * yet sent are bounded per connection and in total; half of the total is shared out as each
 * connection's own room ({@link #replyShareBytes()}), so clients that never read cannot take all
 * of it; a connection whose client does not read waits for room (and stops reading requests)
 * instead of buffering. Connections: at most {@code maxConnections} at a time; one more is
 * refused.
 *
 * @param maxLineBytes longest request line
 * @param waitingLines a connection stops reading while this many lines wait to be applied
 * @param waitingLineBytes ... or while their bytes reach this many (a longer single line still
 *     waits alone)
 * @param replyBytesPerConnection most unsent reply bytes of one connection; reading stops at half
 * @param replyBytesTotal most unsent reply bytes of all connections together
 * @param maxConnections most connections open at a time; one more is answered with a refusal
 *     and closed
 * @param maxBufferedBytes most bytes of request lines held by all connections together
 */
public record FeedLimits(int maxLineBytes, int waitingLines, long waitingLineBytes,
    long replyBytesPerConnection, long replyBytesTotal, int maxConnections,
    long maxBufferedBytes) {
  /** Smallest reply bound per connection: room for four chunks of a reply. */
  public static final long MIN_REPLY_BYTES = 4096;
  /** Most bytes one read of a connection's socket brings. */
  public static final int READ_BYTES = 16 * 1024;
  /**
   * Bytes of request lines every connection may hold whatever the others hold: a line of up to
   * {@code INPUT_SHARE_BYTES - READ_BYTES} bytes and one read.
   */
  public static final int INPUT_SHARE_BYTES = 2 * READ_BYTES;
  /** The default of {@code maxBufferedBytes}: 128 MiB (raised if the other limits need more). */
  public static final long DEFAULT_BUFFERED_BYTES = 128L << 20;
  private static final int MAX_CHUNK = 16 * 1024;

  /** Limits with the default {@code maxBufferedBytes} (at least what the others need). */
  public FeedLimits(int maxLineBytes, int waitingLines, long waitingLineBytes,
      long replyBytesPerConnection, long replyBytesTotal, int maxConnections) {
    this(maxLineBytes, waitingLines, waitingLineBytes, replyBytesPerConnection, replyBytesTotal,
        maxConnections, defaultBufferedBytes(maxLineBytes, maxConnections));
  }

  public FeedLimits {
    require(maxLineBytes >= 1024, "maxLineBytes", maxLineBytes, "at least 1024");
    require(waitingLines >= 1, "waitingLines", waitingLines, "at least 1");
    require(waitingLineBytes >= 1, "waitingLineBytes", waitingLineBytes, "at least 1");
    require(replyBytesPerConnection >= MIN_REPLY_BYTES, "replyBytesPerConnection",
        replyBytesPerConnection, "at least " + MIN_REPLY_BYTES);
    require(replyBytesTotal >= replyBytesPerConnection, "replyBytesTotal", replyBytesTotal,
        "at least replyBytesPerConnection (" + replyBytesPerConnection + ")");
    require(maxConnections >= 1, "maxConnections", maxConnections, "at least 1");
    require(replyBytesTotal >= 2L * maxConnections, "replyBytesTotal", replyBytesTotal,
        "at least 2 per connection (" + 2L * maxConnections + " for maxConnections "
            + maxConnections + "): half of it is each connection's own room");
    long least = minBufferedBytes(maxLineBytes, maxConnections);
    require(maxBufferedBytes >= least, "maxBufferedBytes", maxBufferedBytes, "at least " + least
        + " (" + INPUT_SHARE_BYTES + " per connection for maxConnections " + maxConnections
        + ", plus one line of maxLineBytes " + maxLineBytes + " and one read of " + READ_BYTES
        + ")");
  }

  /**
   * The least {@code maxBufferedBytes} for these limits: every connection's own room, plus room
   * for one line of the longest length and one read, so that any line within the limit can be
   * taken once the others' lines are applied.
   */
  public static long minBufferedBytes(int maxLineBytes, int maxConnections) {
    return (long) maxConnections * INPUT_SHARE_BYTES + maxLineBytes + READ_BYTES;
  }

  /** {@link #DEFAULT_BUFFERED_BYTES}, or {@link #minBufferedBytes} if that is more. */
  public static long defaultBufferedBytes(int maxLineBytes, int maxConnections) {
    return Math.max(DEFAULT_BUFFERED_BYTES, minBufferedBytes(maxLineBytes, maxConnections));
  }

  /**
   * The defaults: 17 MiB lines ({@link FeedParser#MAX_LINE_BYTES}), 1,024 lines or 4 MiB waiting
   * per connection, 1 MiB of unsent replies per connection and 64 MiB in total, 1,024
   * connections, 128 MiB of request lines held in total.
   */
  public static FeedLimits defaults() {
    return new FeedLimits(FeedParser.MAX_LINE_BYTES, 1024, 4L << 20, 1L << 20, 64L << 20, 1024,
        DEFAULT_BUFFERED_BYTES);
  }

  /** A copy with other reply bounds. */
  public FeedLimits withReplyBytes(long perConnection, long total) {
    return new FeedLimits(maxLineBytes, waitingLines, waitingLineBytes, perConnection, total,
        maxConnections, maxBufferedBytes);
  }

  /** A copy with other bounds on waiting request lines. */
  public FeedLimits withWaiting(int lines, long bytes) {
    return new FeedLimits(maxLineBytes, lines, bytes, replyBytesPerConnection, replyBytesTotal,
        maxConnections, maxBufferedBytes);
  }

  /**
   * A copy with another line length limit; a {@code maxBufferedBytes} at its default is raised
   * if the new limit needs more.
   */
  public FeedLimits withMaxLineBytes(int bytes) {
    return new FeedLimits(bytes, waitingLines, waitingLineBytes, replyBytesPerConnection,
        replyBytesTotal, maxConnections, buffered(bytes, maxConnections));
  }

  /**
   * A copy with another connection limit; a {@code maxBufferedBytes} at its default is raised if
   * the new limit needs more.
   */
  public FeedLimits withMaxConnections(int connections) {
    return new FeedLimits(maxLineBytes, waitingLines, waitingLineBytes, replyBytesPerConnection,
        replyBytesTotal, connections, buffered(maxLineBytes, connections));
  }

  /** A copy with another total for request lines held. */
  public FeedLimits withMaxBufferedBytes(long bytes) {
    return new FeedLimits(maxLineBytes, waitingLines, waitingLineBytes, replyBytesPerConnection,
        replyBytesTotal, maxConnections, bytes);
  }

  private long buffered(int lineBytes, int connections) {
    return maxBufferedBytes == defaultBufferedBytes(maxLineBytes, maxConnections)
        ? defaultBufferedBytes(lineBytes, connections) : maxBufferedBytes;
  }

  /**
   * Unsent reply bytes every connection may have whatever the others have: half the total shared
   * out evenly (at most the per-connection bound). The other half is taken by whichever
   * connections want more, each up to its own bound.
   */
  long replyShareBytes() {
    return Math.min(replyBytesPerConnection, replyBytesTotal / (2L * maxConnections));
  }

  /** Unsent reply bytes beyond their own room that connections draw from together. */
  long replySharedBytes() {
    return replyBytesTotal - maxConnections * replyShareBytes();
  }

  /**
   * Room of one slot for request lines, beyond a connection's own: one line of the longest length
   * and one read ({@link InputBudget}).
   */
  long inputSlotBytes() {
    return (long) maxLineBytes + READ_BYTES;
  }

  /**
   * Slots for request lines: how many connections at a time may hold more than their own room
   * (at least 1; 5 with the defaults).
   */
  int inputSlots() {
    return (int) Math.min(Integer.MAX_VALUE,
        (maxBufferedBytes - (long) maxConnections * INPUT_SHARE_BYTES) / inputSlotBytes());
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
