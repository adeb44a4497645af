package org.strata.ycsb.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.FeedParser;
import org.strata.lsm.dataset.FeedRecord;

/**
 * One feed connection. Lines are received on Netty's event loop and applied, in order, by a
 * worker task, because a write may block while the dataset stalls. Back-pressure: the connection
 * reads the socket only while fewer than {@value #HIGH_WATER} lines wait and its replies are being
 * consumed, so while the dataset stalls TCP flow control slows the sender and nothing is buffered
 * without bound. Each line must be UTF-8 and is decoded strictly. A bad line is rejected with its
 * number and reason and the connection goes on; a line cut off by a disconnect is never applied.
 * Lines still waiting when the server stops are dropped unapplied and unacknowledged (counted).
 */
final class FeedConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LogManager.getLogger(FeedConnection.class);
  static final int HIGH_WATER = 1024;

  private final Dataset dataset;
  private final FeedStats stats;
  private final Executor workers;
  private final AtomicBoolean stopping;
  private final FeedParser parser = FeedParser.forRequests();
  private final ObjectMapper json = new ObjectMapper();
  private final ConcurrentLinkedQueue<Line> pending = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicBoolean draining = new AtomicBoolean();
  private volatile boolean closed;
  private ChannelHandlerContext ctx;
  private long lineNumber; // event loop only
  private String name;

  /** A received line, or a rejection found while receiving it ({@code bytes} null). */
  private record Line(long number, byte[] bytes, String rejection) {}

  FeedConnection(Dataset dataset, FeedStats stats, Executor workers, AtomicBoolean stopping) {
    this.dataset = dataset;
    this.stats = stats;
    this.workers = workers;
    this.stopping = stopping;
  }

  @Override
  public void channelActive(ChannelHandlerContext c) {
    ctx = c;
    name = String.valueOf(c.channel().remoteAddress());
    stats.connections.incrementAndGet();
    LOG.info("feed connection from {}", name);
    c.read();
  }

  @Override
  public void channelRead(ChannelHandlerContext c, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    try {
      enqueue(new Line(++lineNumber, ByteBufUtil.getBytes(buf), null));
    } finally {
      buf.release();
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
    if (cause instanceof TooLongFrameException) {
      enqueue(new Line(++lineNumber, null, "line longer than " + FeedServer.MAX_LINE_BYTES
          + " bytes"));
      maybeRead();
      return;
    }
    LOG.warn("feed connection {} failed: {}", name, cause.toString());
    c.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext c) {
    closed = true;
    LOG.info("feed connection from {} closed after {} lines", name, lineNumber);
  }

  private void enqueue(Line l) {
    stats.lines.incrementAndGet();
    pending.add(l);
    stats.maxWaiting.accumulateAndGet(waiting.incrementAndGet(), Math::max);
    if (draining.compareAndSet(false, true)) {
      workers.execute(this::drain);
    }
  }

  /** Asks for more input while the backlog is small and the peer takes our replies. */
  private void maybeRead() {
    if (!ctx.channel().eventLoop().inEventLoop()) {
      try {
        ctx.channel().eventLoop().execute(this::maybeRead);
      } catch (RejectedExecutionException e) {
        // the server is shutting down
      }
      return;
    }
    if (waiting.get() < HIGH_WATER && ctx.channel().isWritable() && ctx.channel().isActive()) {
      ctx.read();
    }
  }

  private void drain() {
    while (true) {
      Line l;
      while ((l = pending.poll()) != null) {
        if (stopping.get()) {
          stats.dropped.incrementAndGet(); // never acknowledged: the server is stopping
        } else {
          process(l);
        }
        if (waiting.decrementAndGet() == HIGH_WATER / 2) {
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
    if (l.bytes() == null) {
      reject(l.number(), l.rejection());
      return;
    }
    if (FeedParser.isBlank(l.bytes(), 0, l.bytes().length)) {
      return;
    }
    FeedRecord r;
    try {
      r = parser.parse(l.bytes(), 0, l.bytes().length);
    } catch (FeedParser.RejectedLineException e) {
      reject(l.number(), e.getMessage());
      return;
    }
    try {
      switch (r.op()) {
        case UPSERT, DELETE -> {
          r.applyTo(dataset);
          (r.op() == FeedRecord.Op.UPSERT ? stats.upserts : stats.deletes).incrementAndGet();
          if (r.ack()) {
            reply(json.createObjectNode().put("ok", true).put("line", l.number()));
          }
        }
        case GET -> {
          Optional<DatasetRecord> rec = dataset.get(r.key());
          stats.reads.incrementAndGet();
          ObjectNode o = json.createObjectNode().put("ok", true).put("found", rec.isPresent());
          rec.ifPresent(x -> o.set("record", recordJson(x)));
          reply(o);
        }
        case SCAN -> {
          ObjectNode o = json.createObjectNode().put("ok", true);
          ArrayNode list = o.putArray("records");
          dataset.scan(r.key(), r.count()).forEach(x -> list.add(recordJson(x)));
          stats.reads.incrementAndGet();
          reply(o);
        }
        default -> throw new IllegalStateException();
      }
    } catch (IllegalArgumentException e) {
      reject(l.number(), e.getMessage());
    } catch (RuntimeException e) {
      stats.failed.incrementAndGet();
      LOG.error("feed connection {} line {}: the dataset failed: {}", name, l.number(),
          e.toString());
      reply(json.createObjectNode().put("ok", false).put("line", l.number())
          .put("reason", Utf8.printable("the dataset failed: " + e.getMessage(), 1000)));
    }
  }

  private ObjectNode recordJson(DatasetRecord r) {
    ObjectNode o = json.createObjectNode().put("key", r.key());
    ObjectNode f = o.putObject("fields");
    r.fields().forEach(f::put);
    return o;
  }

  private void reject(long line, String reason) {
    String shown = Utf8.printable(String.valueOf(reason), 1000); // valid text, whatever was sent
    stats.rejected.incrementAndGet();
    LOG.warn("feed connection {} line {}: rejected: {}", name, line, shown);
    reply(json.createObjectNode().put("ok", false).put("line", line).put("reason", shown));
  }

  private void reply(ObjectNode o) {
    if (closed) {
      return;
    }
    ctx.writeAndFlush(ctx.alloc().buffer().writeBytes((o.toString() + "\n")
        .getBytes(StandardCharsets.UTF_8)));
  }
}
