package org.strata.ycsb.feed;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.dataset.Dataset;

/**
 * A socket feed into a dataset, like AsterixDB's socket adapter: clients send newline-delimited
 * JSON records ({@code {"op":"upsert","key":...,"fields":{...}}}, {@code {"op":"delete",...}}); a
 * write may carry {@code "ack": true} to get a reply line, and {@code get} and {@code scan}
 * requests are answered (docs/two-phase.md, "Feed protocol"). Rejected lines are answered with
 * {@code {"ok":false,"line":N,"reason":...}}, counted and logged; the connection goes on, except
 * after a line longer than {@link FeedLimits#maxLineBytes()}, which closes it. A client may
 * half-close (shut its sending side down): its complete lines are still applied and answered,
 * then the server closes. What the server buffers is bounded by its {@link FeedLimits}: per
 * connection, for request lines and for replies in total, and by the number of connections
 * (docs/reliability-feed.md).
 */
public final class FeedServer implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(FeedServer.class);
  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup io = new NioEventLoopGroup(2);
  private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "strata-feed-worker");
    t.setDaemon(true);
    return t;
  });
  private final FeedStats stats = new FeedStats();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final ReplyBudget budget;
  private final InputBudget input;
  private final Channel channel;

  private FeedServer(Dataset dataset, String host, int port, FeedLimits limits,
      FeedFormat format) throws InterruptedException {
    budget = new ReplyBudget(limits, stats);
    input = new InputBudget(limits, stats);
    long perConnection = limits.replyBytesPerConnection();
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, io)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.AUTO_READ, false)
        // One read, when asked, of at most READ_BYTES: the room each read reserves.
        .childOption(ChannelOption.RCVBUF_ALLOCATOR,
            new FixedRecvByteBufAllocator(FeedLimits.READ_BYTES).maxMessagesPerRead(1))
        // A client that shuts its sending side down still gets its replies.
        .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
        // Netty's view of writability, matching the reply budget's (which is what bounds).
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
            new WriteBufferWaterMark((int) Math.min(Integer.MAX_VALUE, perConnection / 2),
                (int) Math.min(Integer.MAX_VALUE, perConnection)))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new FeedConnection(dataset, stats, limits, budget, input,
                workers, stopping, format));
          }
        });
    channel = b.bind(host, port).sync().channel();
    LOG.info("feed server listening on {}", channel.localAddress());
  }

  /**
   * Starts a server for {@code dataset} on {@code host:port} (port 0: any free port) with the
   * {@link FeedLimits#defaults() default limits}.
   */
  public static FeedServer start(Dataset dataset, String host, int port) {
    return start(dataset, host, port, FeedLimits.defaults());
  }

  /** Starts a server for {@code dataset} on {@code host:port} with {@code limits}. */
  public static FeedServer start(Dataset dataset, String host, int port, FeedLimits limits) {
    return start(dataset, host, port, limits, FeedFormat.STRATA);
  }

  /** Starts a server whose connections send lines of {@code format}. */
  public static FeedServer start(Dataset dataset, String host, int port, FeedLimits limits,
      FeedFormat format) {
    try {
      return new FeedServer(dataset, host, port, limits, format);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding the feed server", e);
    }
  }

  /** The port the server listens on. */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** The counters and gauges. */
  public FeedStats.Snapshot stats() {
    return stats.snapshot();
  }

  /**
   * Stops accepting, closes the connections, drops lines not yet applied (they were never
   * acknowledged) and waits for the line being applied on each connection.
   */
  @Override
  public void close() {
    stopping.set(true);
    budget.close(); // a worker waiting for a client that does not read gives up
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
        // A line still being applied (e.g. a write stalled by flow control) cannot be
        // acknowledged any more: its connection is closed.
        LOG.warn("feed server closed while a line was still being applied after 30 s; it was not"
            + " acknowledged");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
