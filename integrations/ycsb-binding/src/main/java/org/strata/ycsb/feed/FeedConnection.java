package org.strata.ycsb.feed;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.FeedParser;
import org.strata.lsm.dataset.PlainRecords;
import org.strata.lsm.dataset.FeedRecord;

/**
 * One feed connection. Lines are cut on Netty's event loop ({@link LineFramer}) and applied, in
 * order, by a worker task, because a write may block while the dataset stalls and a reply may wait
 * for its client. Each line must be UTF-8 and is decoded strictly: a line that is not, like any
 * other bad line, is rejected with its number and reason and the connection goes on.
 *
 * <p>Back-pressure ({@link FeedLimits}): the connection reads its socket only while few lines wait
 * (by count and bytes), its worker is not waiting for reply room, less than half its reply bound
 * is unsent, and the server's {@link InputBudget} has room for what it holds plus one more read;
 * otherwise TCP flow control slows the sender. Replies go out through a {@link ReplyWriter} in
 * chunks, each reserved in the server's {@link ReplyBudget}, and a scan is read in batches between
 * chunks, so no reply is ever held whole and a client that does not read holds at most its
 * connection's bound. A line cut off by a disconnect or by the end of the client's input is never
 * applied. Lines still waiting when the server stops are dropped unapplied and unacknowledged
 * (counted).
 *
 * <p>A client that shuts its sending side down (half-close, e.g. {@code nc -N}) still gets the
 * replies to every complete line it sent; then the server closes the connection.
 *
 * <p>Two things close a connection from the server's side: a line longer than {@link
 * FeedLimits#maxLineBytes()} (the lines before it are applied and answered, the long line is
 * rejected, and nothing after it is read), and a connection beyond {@link
 * FeedLimits#maxConnections()} (refused before any line; once as many refused connections are
 * still open as the limit, further ones are closed at once, without a reply). Either way the
 * server sends its reply, shuts its side of the connection down and then reads and discards at
 * most {@link #LINGER_DISCARD_BYTES} more bytes, or until the client closes, before it closes:
 * closing a socket with unread bytes would reset the connection and could destroy the reply
 * before the client reads it. Discarded bytes are never held.
 */
final class FeedConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LogManager.getLogger(FeedConnection.class);
  /**
   * A scan reads records in batches of about this many bytes; the dataset's components stay
   * pinned only while a batch is read, never while its reply waits for the client.
   */
  static final int SCAN_BATCH_BYTES = 64 * 1024;
  /**
   * Most bytes read and dropped from a connection being closed after its reply, before it is
   * closed regardless (a reset then): enough for the rest of a long line of any likely client.
   */
  static final long LINGER_DISCARD_BYTES = 64L << 20;
  /** Reply generators; the mapper gives them a codec, for the trees of plain records. */
  private static final JsonFactory JSON = new com.fasterxml.jackson.databind.ObjectMapper(
      JsonFactory.builder()
          .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
          .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
          .build()).getFactory();

  private final FeedFormat format;
  private final Dataset dataset;
  private final FeedStats stats;
  private final FeedLimits limits;
  private final ReplyBudget budget;
  private final InputBudget input;
  private final LineFramer framer;
  private final Executor workers;
  private final AtomicBoolean stopping;
  private final FeedParser parser = FeedParser.forRequests();
  private final ConcurrentLinkedQueue<Line> pending = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicLong waitingBytes = new AtomicLong();
  private final AtomicBoolean draining = new AtomicBoolean();
  private volatile boolean closed;
  private volatile boolean paused; // written on the event loop only
  private volatile boolean refusing; // written on the event loop only: no more lines are taken
  private boolean lingering; // event loop only: the reply is out, input is discarded
  private boolean inputShutdown; // event loop only: the client sends no more
  private boolean counted; // event loop only: counted in the open connections
  private boolean refusedOpen; // event loop only: a refused connection, counted until closed
  private long discarded; // event loop only: bytes discarded while refusing
  private ChannelHandlerContext ctx;
  private ReplyBudget.Account account;
  private InputBudget.Account inAccount;
  private ReplyWriter writer; // the worker's
  private long lineNumber; // event loop only
  private String name;

  /**
   * A received line, or a rejection found while receiving it ({@code bytes} null), or the end of
   * the client's input ({@link #END}).
   */
  private record Line(long number, byte[] bytes, String rejection, boolean closeAfter) {
    /** The client sends no more: close once the replies before are out. */
    static final Line END = new Line(0, null, null, true);

    Line(long number, byte[] bytes) {
      this(number, bytes, null, false);
    }

    int size() {
      return bytes == null ? 0 : bytes.length;
    }
  }

  /** Writes the fields of one reply object. */
  private interface ReplyBody {
    void write(JsonGenerator g) throws IOException;
  }

  FeedConnection(Dataset dataset, FeedStats stats, FeedLimits limits, ReplyBudget budget,
      InputBudget input, Executor workers, AtomicBoolean stopping, FeedFormat format) {
    this.format = format;
    this.dataset = dataset;
    this.stats = stats;
    this.limits = limits;
    this.budget = budget;
    this.input = input;
    this.framer = new LineFramer(limits.maxLineBytes());
    this.workers = workers;
    this.stopping = stopping;
  }

  @Override
  public void channelActive(ChannelHandlerContext c) {
    ctx = c;
    name = String.valueOf(c.channel().remoteAddress());
    stats.connections.incrementAndGet();
    if (stats.openConnections.incrementAndGet() > limits.maxConnections()) {
      stats.openConnections.decrementAndGet();
      stats.refusedConnections.incrementAndGet();
      String reason = "too many connections: the server takes at most " + limits.maxConnections()
          + " at a time; try again later";
      LOG.warn("feed connection from {} refused: {}", name, reason);
      refuse();
      if (stats.refusedOpen.incrementAndGet() > limits.maxConnections()) {
        // As many refused connections still open as the limit: no reply, no lingering, so
        // refused clients that never close cannot pile up.
        stats.refusedOpen.decrementAndGet();
        c.close();
        return;
      }
      refusedOpen = true;
      c.writeAndFlush(format.kind() == FeedFormat.Kind.ASTERIXDB ? Unpooled.EMPTY_BUFFER
          : Unpooled.wrappedBuffer(refusal(reason))).addListener(f -> linger());
      return;
    }
    account = budget.open(this::maybeRead);
    inAccount = input.open(this::held, framer::partialBytes, this::maybeRead);
    writer = new ReplyWriter(c, budget, account, limits.replyChunkBytes(), this::maybeRead);
    counted = true;
    LOG.info("feed connection from {}", name);
    maybeRead();
  }

  @Override
  public void channelRead(ChannelHandlerContext c, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    try {
      if (refusing) {
        // Closing: whatever comes now (lines after a too long one, raw bytes) is never applied.
        discarded += buf.readableBytes();
        if (discarded > LINGER_DISCARD_BYTES) {
          c.close(); // the client keeps sending: enough lingering
        }
        return;
      }
      if (!framer.take(buf, bytes -> enqueue(new Line(++lineNumber, bytes)))) {
        tooLong();
      }
    } finally {
      buf.release(); // nothing of Netty's buffer is kept: the framer copied what it holds
      if (inAccount != null) {
        input.readDone(inAccount);
      }
    }
  }

  /** Bytes of requests this connection holds: the line being received and those not applied. */
  private long held() {
    return framer.partialBytes() + waitingBytes.get();
  }

  /**
   * A line passed the limit (event loop): the lines before it are applied and answered, it is
   * rejected, and nothing after it is read as a line.
   */
  private void tooLong() {
    stats.closedForLongLines.incrementAndGet();
    refuse();
    // Answered after the lines before it, by the worker, which then closes the connection.
    enqueue(new Line(++lineNumber, null, "line longer than " + limits.maxLineBytes()
        + " bytes; the connection is closed", true));
  }

  /**
   * The client shut its sending side down (event loop): a line it left unfinished is dropped (never
   * applied), and once the replies to its complete lines are out, the connection is closed.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext c, Object evt) {
    if (!(evt instanceof ChannelInputShutdownEvent) || inputShutdown) {
      return; // also ChannelInputShutdownReadComplete: nothing to do
    }
    inputShutdown = true;
    if (refusing) {
      if (lingering) {
        c.close(); // the reply is out and the client is done sending
      }
      return; // linger() closes once the reply is out
    }
    stats.inputClosed.incrementAndGet();
    if (framer.partialBytes() > 0) {
      LOG.info("feed connection {}: its input ended in the middle of a line of {} bytes, which is"
          + " not applied", name, framer.partialBytes());
      framer.discard();
      input.released(inAccount);
    }
    pending.add(Line.END);
    if (draining.compareAndSet(false, true)) {
      workers.execute(this::drain);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext c) {
    maybeRead();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext c) {
    maybeRead();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
    LOG.warn("feed connection {} failed: {}", name, cause.toString());
    c.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext c) {
    closed = true;
    if (counted) {
      counted = false;
      stats.openConnections.decrementAndGet();
    }
    if (refusedOpen) {
      refusedOpen = false;
      stats.refusedOpen.decrementAndGet();
    }
    if (account != null) {
      budget.close(account);
    }
    if (inAccount != null) {
      framer.discard(); // a cut line: never applied
      input.close(inAccount); // its lines not yet applied stay counted until they are
    }
    if (paused) {
      paused = false;
      stats.readingPaused.decrementAndGet();
    }
    LOG.info("feed connection from {} closed after {} lines", name, lineNumber);
  }

  private void enqueue(Line l) {
    stats.lines.incrementAndGet();
    stats.waitingLines.incrementAndGet();
    pending.add(l);
    stats.maxWaiting.accumulateAndGet(waiting.incrementAndGet(), Math::max);
    stats.maxWaitingBytes.accumulateAndGet(waitingBytes.addAndGet(l.size()), Math::max);
    if (draining.compareAndSet(false, true)) {
      workers.execute(this::drain);
    }
  }

  /**
   * Takes no more lines on this connection (event loop): the line being received is dropped, so
   * no bytes are held waiting for a newline, and reading stops until the reply is out ({@link
   * #linger}).
   */
  private void refuse() {
    refusing = true;
    framer.discard();
    if (inAccount != null) {
      input.released(inAccount);
    }
  }

  /**
   * Closes once the replies handed over so far are sent (any thread): shuts the output down
   * after them, then {@link #linger lingers}.
   */
  private void closeAfterReplies() {
    ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> linger());
  }

  /**
   * The reply is sent (event loop): the server's side of the connection is shut down (the client
   * reads the reply, then end of stream) and input is read and discarded, at most {@link
   * #LINGER_DISCARD_BYTES}, until the client closes.
   */
  private void linger() {
    if (!ctx.channel().isActive()) {
      return;
    }
    lingering = true;
    if (inputShutdown) {
      ctx.close(); // the client sends no more: nothing to wait for
      return;
    }
    ((SocketChannel) ctx.channel()).shutdownOutput().addListener(f -> {
      if (!f.isSuccess()) {
        ctx.close();
      }
    });
    ctx.read();
  }

  /** Asks for more input unless back-pressure says not to; records whether reading is paused. */
  private void maybeRead() {
    if (!ctx.channel().eventLoop().inEventLoop()) {
      try {
        ctx.channel().eventLoop().execute(this::maybeRead);
      } catch (RejectedExecutionException e) {
        // the server is shutting down
      }
      return;
    }
    if (!ctx.channel().isActive()) {
      return;
    }
    if (refusing) {
      if (lingering && !inputShutdown) {
        ctx.read(); // discarding until the client closes
      }
      return;
    }
    if (inputShutdown) {
      return; // nothing more to read
    }
    boolean read = waiting.get() < limits.waitingLines()
        && waitingBytes.get() < limits.waitingLineBytes()
        && !account.waiting()
        && account.unsent() < limits.replyBytesPerConnection() / 2
        // last: on refusal the connection waits in line for room and is woken when it has some
        && input.reserveRead(inAccount);
    if (read) {
      if (paused) {
        paused = false;
        stats.readingPaused.decrementAndGet();
      }
      ctx.read();
    } else if (!paused) {
      paused = true;
      stats.readingPaused.incrementAndGet();
    }
  }

  private void drain() {
    while (true) {
      Line l;
      while ((l = pending.poll()) != null) {
        if (l == Line.END) {
          if (!stopping.get()) {
            closeAfterReplies();
          }
          continue;
        }
        if (stopping.get()) {
          stats.dropped.incrementAndGet(); // never acknowledged: the server is stopping
        } else {
          process(l);
        }
        stats.waitingLines.decrementAndGet();
        int lines = waiting.decrementAndGet();
        long bytes = waitingBytes.addAndGet(-l.size());
        if (l.size() > 0) {
          input.released(inAccount); // the line is applied: its room is free
        }
        if (paused && lines <= limits.waitingLines() / 2
            && bytes <= limits.waitingLineBytes() / 2) {
          maybeRead();
        }
      }
      draining.set(false);
      if (pending.isEmpty() || !draining.compareAndSet(false, true)) {
        break;
      }
    }
    maybeRead();
  }

  private void process(Line l) {
    try {
      apply(l);
      if (l.closeAfter()) {
        closeAfterReplies();
      }
    } catch (IOException e) {
      // Only a reply that could not be written as JSON gets here; its line may be cut short.
      LOG.error("feed connection {} line {}: cannot write the reply, closing: {}", name,
          l.number(), e.toString());
      ctx.close();
    }
  }

  private void apply(Line l) throws IOException {
    if (l.bytes() == null) {
      reject(l.number(), l.rejection());
      return;
    }
    if (FeedParser.isBlank(l.bytes(), 0, l.bytes().length)) {
      return;
    }
    FeedRecord r;
    try {
      r = format.kind() == FeedFormat.Kind.ASTERIXDB
          ? PlainRecords.parse(l.bytes(), 0, l.bytes().length, format.keyField())
          : parser.parse(l.bytes(), 0, l.bytes().length);
    } catch (FeedParser.RejectedLineException e) {
      reject(l.number(), e.getMessage());
      return;
    }
    if (!r.isWrite() && closed) {
      return; // nobody to answer; writes of complete lines are still applied
    }
    if (r.op() == FeedRecord.Op.SCAN) {
      scan(l.number(), r);
      return;
    }
    try {
      switch (r.op()) {
        case UPSERT, DELETE -> {
          r.applyTo(dataset);
          (r.op() == FeedRecord.Op.UPSERT ? stats.upserts : stats.deletes).incrementAndGet();
          if (r.ack()) {
            reply(g -> {
              g.writeBooleanField("ok", true);
              g.writeNumberField("line", l.number());
            });
          }
        }
        case GET -> {
          Optional<DatasetRecord> rec = dataset.get(r.key());
          stats.reads.incrementAndGet();
          reply(g -> {
            g.writeBooleanField("ok", true);
            g.writeBooleanField("found", rec.isPresent());
            if (rec.isPresent()) {
              g.writeFieldName("record");
              writeRecord(g, rec.get());
            }
          });
        }
        case STATS -> {
          FeedStats.Snapshot f = stats.snapshot();
          java.util.Map<String, org.strata.lsm.StoreStats> trees = dataset.treeStats();
          reply(g -> {
            g.writeBooleanField("ok", true);
            g.writeObjectFieldStart("feed");
            for (java.lang.reflect.RecordComponent c : FeedStats.Snapshot.class
                .getRecordComponents()) {
              try {
                g.writeNumberField(c.getName(), (long) c.getAccessor().invoke(f));
              } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
              }
            }
            g.writeNumberField("applied", f.applied());
            g.writeEndObject();
            g.writeObjectFieldStart("dataset");
            g.writeNumberField("partitions", dataset.partitionCount());
            g.writeObjectFieldStart("trees");
            for (java.util.Map.Entry<String, org.strata.lsm.StoreStats> e : trees.entrySet()) {
              org.strata.lsm.StoreStats t = e.getValue();
              g.writeObjectFieldStart(e.getKey());
              g.writeNumberField("diskComponents", t.diskComponents());
              g.writeNumberField("runs", t.runs());
              g.writeNumberField("entries", t.entries());
              g.writeNumberField("flushes", t.flushes());
              g.writeNumberField("merges", t.merges());
              g.writeNumberField("writeAmplification", t.writeAmplification());
              g.writeNumberField("diskBytes", t.diskBytes());
              g.writeNumberField("pendingMergeBytes", t.pendingMergeBytes());
              g.writeBooleanField("stalledNow", t.stalledNow());
              g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
          });
        }
        default -> throw new IllegalStateException(r.op() + " is not handled");
      }
    } catch (IllegalArgumentException e) {
      reject(l.number(), e.getMessage());
    } catch (RuntimeException e) {
      stats.failed.incrementAndGet();
      LOG.error("feed connection {} line {}: the dataset failed: {}", name, l.number(),
          e.toString());
      reply(g -> {
        g.writeBooleanField("ok", false);
        g.writeNumberField("line", l.number());
        g.writeStringField("reason", printable("the dataset failed: " + e.getMessage()));
      });
    }
  }

  /**
   * Answers a scan as {@code {"records":[...],"ok":true}}, read in batches of about {@link
   * #SCAN_BATCH_BYTES} and sent as the client takes it. If the dataset fails part-way, the line
   * ends {@code "ok":false} with the line number and reason after the records sent so far.
   */
  private void scan(long line, FeedRecord r) throws IOException {
    JsonGenerator g = JSON.createGenerator(writer, JsonEncoding.UTF8);
    g.writeStartObject();
    g.writeArrayFieldStart("records");
    String failure = null;
    String from = r.key();
    boolean inclusive = true;
    int left = r.count();
    try {
      while (left > 0 && !closed && !stopping.get()) {
        List<DatasetRecord> batch = new ArrayList<>();
        long[] size = {0};
        int n = dataset.scan(from, inclusive, left, rec -> {
          batch.add(rec);
          size[0] += estimate(rec);
          return size[0] < SCAN_BATCH_BYTES;
        });
        for (DatasetRecord rec : batch) {
          writeRecord(g, rec); // may wait for the client, with no component pinned
        }
        left -= n;
        if (batch.isEmpty() || size[0] < SCAN_BATCH_BYTES) {
          break; // the records ran out, or the count is reached
        }
        from = batch.get(batch.size() - 1).key();
        inclusive = false;
      }
    } catch (RuntimeException e) {
      failure = "the dataset failed: " + e.getMessage();
      stats.failed.incrementAndGet();
      LOG.error("feed connection {} line {}: the dataset failed during a scan: {}", name, line,
          e.toString());
    }
    g.writeEndArray();
    if (failure == null) {
      g.writeBooleanField("ok", true);
    } else {
      g.writeBooleanField("ok", false);
      g.writeNumberField("line", line);
      g.writeStringField("reason", printable(failure));
    }
    g.writeEndObject();
    end(g);
    if (failure == null && !closed) {
      stats.reads.incrementAndGet(); // answered in full
    }
  }

  /** About the JSON size of a record, to size scan batches. */
  private static long estimate(DatasetRecord r) {
    long n = 32 + r.key().length();
    for (Map.Entry<String, String> e : r.fields().entrySet()) {
      n += 8 + e.getKey().length() + e.getValue().length();
    }
    return n;
  }

  private static void writeRecord(JsonGenerator g, DatasetRecord r) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", r.key());
    g.writeFieldName("fields");
    if (r.fields().containsKey(PlainRecords.TYPED_FIELDS)) {
      g.writeTree(PlainRecords.fieldsJson(r)); // a plain record: its values as they were sent
    } else {
      g.writeStartObject();
      for (Map.Entry<String, String> e : r.fields().entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private void reject(long line, String reason) throws IOException {
    String shown = printable(reason);
    stats.rejected.incrementAndGet();
    LOG.warn("feed connection {} line {}: rejected: {}", name, line, shown);
    reply(g -> {
      g.writeBooleanField("ok", false);
      g.writeNumberField("line", line);
      g.writeStringField("reason", shown);
    });
  }

  /** {@code {"ok":false,"reason":...}} and a newline. */
  private static byte[] refusal(String reason) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeBooleanField("ok", false);
      g.writeStringField("reason", reason);
      g.writeEndObject();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // writing to memory
    }
    out.write('\n');
    return out.toByteArray();
  }

  /** A reason as valid text of bounded length, whatever the client sent. */
  private static String printable(String reason) {
    return Utf8.printable(String.valueOf(reason), 1000);
  }

  /** Writes one reply object and its newline. */
  private void reply(ReplyBody body) throws IOException {
    if (closed || format.kind() == FeedFormat.Kind.ASTERIXDB) {
      return; // AsterixDB's socket feed answers nothing; its clients read nothing
    }
    JsonGenerator g = JSON.createGenerator(writer, JsonEncoding.UTF8);
    g.writeStartObject();
    body.write(g);
    g.writeEndObject();
    end(g);
  }

  /** Ends a reply: the generator's bytes, a newline, and the last chunk handed to Netty. */
  private void end(JsonGenerator g) throws IOException {
    g.close();
    writer.write('\n');
    writer.flush();
  }
}
