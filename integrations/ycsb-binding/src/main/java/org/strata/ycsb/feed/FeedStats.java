package org.strata.ycsb.feed;

import java.util.concurrent.atomic.AtomicLong;

/** Counters and gauges of a feed server, updated by its connections. Thread-safe. */
public final class FeedStats {
  final AtomicLong connections = new AtomicLong();
  final AtomicLong lines = new AtomicLong();
  final AtomicLong upserts = new AtomicLong();
  final AtomicLong deletes = new AtomicLong();
  final AtomicLong reads = new AtomicLong();
  final AtomicLong rejected = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong maxWaiting = new AtomicLong();
  final AtomicLong waitingLines = new AtomicLong();
  final AtomicLong maxWaitingBytes = new AtomicLong();
  final AtomicLong dropped = new AtomicLong();
  final AtomicLong unsentReplyBytes = new AtomicLong();
  final AtomicLong maxUnsentReplyBytes = new AtomicLong();
  final AtomicLong maxConnectionUnsentReplyBytes = new AtomicLong();
  final AtomicLong replyWaits = new AtomicLong();
  final AtomicLong waitingForReplyRoom = new AtomicLong();
  final AtomicLong readingPaused = new AtomicLong();
  final AtomicLong openConnections = new AtomicLong();
  final AtomicLong refusedConnections = new AtomicLong();
  final AtomicLong closedForLongLines = new AtomicLong();
  final AtomicLong bufferedBytes = new AtomicLong();
  final AtomicLong peakBufferedBytes = new AtomicLong();
  final AtomicLong bufferWaits = new AtomicLong();
  final AtomicLong waitingForBufferRoom = new AtomicLong();
  final AtomicLong inputClosed = new AtomicLong();
  /** Refused connections not yet closed (they linger while their refusal drains). */
  final AtomicLong refusedOpen = new AtomicLong();

  /** A snapshot. */
  public Snapshot snapshot() {
    return new Snapshot(connections.get(), lines.get(), upserts.get(), deletes.get(), reads.get(),
        rejected.get(), failed.get(), dropped.get(), waitingLines.get(), maxWaiting.get(),
        maxWaitingBytes.get(),
        unsentReplyBytes.get(), maxUnsentReplyBytes.get(), maxConnectionUnsentReplyBytes.get(),
        replyWaits.get(),
        waitingForReplyRoom.get(), readingPaused.get(), openConnections.get(),
        refusedConnections.get(), closedForLongLines.get(), bufferedBytes.get(),
        peakBufferedBytes.get(), bufferWaits.get(), waitingForBufferRoom.get(), inputClosed.get());
  }

  /**
   * Counts since the server started, and gauges of now.
   *
   * @param connections connections accepted
   * @param lines complete lines received
   * @param upserts upserts applied
   * @param deletes deletes applied
   * @param reads gets and scans answered
   * @param rejected lines rejected (malformed, not UTF-8, unknown op, missing key, a key or field
   *     that is not valid Unicode, too long)
   * @param failed well-formed requests the dataset failed to apply (storage errors)
   * @param dropped received lines dropped unapplied because the server stopped first
   * @param waitingLines gauge: lines received and not yet applied or answered, all connections
   * @param maxWaiting most lines ever waiting to be applied on one connection (the bound that
   *     back-pressure keeps)
   * @param maxWaitingBytes most bytes of lines ever waiting to be applied on one connection
   * @param unsentReplyBytes gauge: reply bytes of all connections handed to the network and not
   *     yet sent (the server's reply buffers)
   * @param maxUnsentReplyBytes the most {@code unsentReplyBytes} ever was
   * @param maxConnectionUnsentReplyBytes the most unsent reply bytes one connection ever had
   * @param replyWaits times a reply waited for room because a client was not reading
   * @param waitingForReplyRoom gauge: connections waiting for room for a reply now
   * @param readingPaused gauge: connections not reading their socket now because of back-pressure
   *     (replies unsent, lines waiting, or no room for more request bytes)
   * @param openConnections gauge: connections open now (refused ones not counted)
   * @param refusedConnections connections refused because {@link FeedLimits#maxConnections()}
   *     were open
   * @param closedForLongLines connections closed because a line was longer than {@link
   *     FeedLimits#maxLineBytes()}
   * @param bufferedBytes gauge: request bytes held by all connections (lines being received,
   *     waiting or being applied) plus room reserved for the reads in progress; at most {@link
   *     FeedLimits#maxBufferedBytes()}
   * @param peakBufferedBytes the most {@code bufferedBytes} ever was
   * @param bufferWaits times a connection was not read because there was no room for more request
   *     bytes ({@link FeedLimits#maxBufferedBytes()})
   * @param waitingForBufferRoom gauge: connections not read now for want of that room
   * @param inputClosed connections whose client ended its input (shut its sending side down, or
   *     closed): their complete lines are applied and answered (if the client still reads), then
   *     the connection is closed
   */
  public record Snapshot(long connections, long lines, long upserts, long deletes, long reads,
      long rejected, long failed, long dropped, long waitingLines, long maxWaiting,
      long maxWaitingBytes,
      long unsentReplyBytes, long maxUnsentReplyBytes, long maxConnectionUnsentReplyBytes,
      long replyWaits, long waitingForReplyRoom, long readingPaused, long openConnections,
      long refusedConnections, long closedForLongLines, long bufferedBytes,
      long peakBufferedBytes, long bufferWaits, long waitingForBufferRoom, long inputClosed) {
    /** Writes applied. */
    public long applied() {
      return upserts + deletes;
    }
  }
}
