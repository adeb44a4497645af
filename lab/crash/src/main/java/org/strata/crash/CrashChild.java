package org.strata.crash;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.engine.Store;
import org.strata.lsm.io.CrashPoint;
import org.strata.ycsb.feed.FeedServer;

/**
 * The writer process of the crash-test loop, killed by its parent. Writes operations {@code
 * start}, {@code start + 1}, ... of the {@link CrashWorkload} one at a time and, once each
 * returns (durable under {@code sync}, logged under {@code group}), prints {@code ack <seq>
 * <epoch millis>} on standard output. A {@code feed} child instead serves the dataset with a feed
 * server on 127.0.0.1 and prints {@code listening <port>}; the parent is the feed client. With a
 * crash point, the child prints {@code crashpoint <name>} when it reaches it and stops there.
 *
 * <p>The child ends by itself only when its standard input ends (the parent died).
 *
 * <p>Arguments: writer kind ({@code store}, {@code dataset}, {@code feed}), directory,
 * configuration file, first sequence number, seed, crash point name or {@code -}, occurrence.
 */
public final class CrashChild {
  private CrashChild() {}

  /** Runs the writer until killed. */
  public static void main(String[] args) throws Exception {
    if (args.length != 7) {
      throw new IllegalArgumentException("usage: CrashChild KIND DIR CONFIG START SEED POINT|-"
          + " OCCURRENCE");
    }
    WriterKind kind = WriterKind.parseSelection(args[0]).get(0);
    Path dir = Path.of(args[1]);
    Path config = Path.of(args[2]);
    long seq = Long.parseLong(args[3]);
    CrashWorkload w = CrashWorkload.of(Long.parseLong(args[4]), kind);
    CrashPoint point = args[5].equals("-") ? null : CrashPoint.parse(args[5]);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
        false, StandardCharsets.US_ASCII);
    watchParent();
    StoreEnvironment env = StoreEnvironment.standard()
        .withCrashPoints(new PausingCrashPoints(point, Integer.parseInt(args[6]), out));
    switch (kind) {
      case STORE -> {
        try (Store store = Store.open(dir, StoreConfigJson.read(config), env)) {
          while (true) {
            byte[] key = w.key(seq).getBytes(StandardCharsets.US_ASCII);
            if (w.isDelete(seq)) {
              store.delete(key);
            } else {
              store.put(key, w.storeValue(seq));
            }
            ack(out, seq++);
          }
        }
      }
      case DATASET -> {
        try (Dataset ds = Dataset.open(dir, DatasetConfigJson.read(config), env)) {
          while (true) {
            if (w.isDelete(seq)) {
              ds.delete(w.key(seq));
            } else {
              ds.upsert(w.key(seq), w.fields(seq));
            }
            ack(out, seq++);
          }
        }
      }
      case FEED -> {
        Dataset ds = Dataset.open(dir, DatasetConfigJson.read(config), env);
        FeedServer server = FeedServer.start(ds, "127.0.0.1", 0);
        synchronized (out) {
          out.println("listening " + server.port());
          out.flush();
        }
        new CountDownLatch(1).await(); // until killed
      }
      default -> throw new IllegalStateException();
    }
  }

  /**
   * Ends this process when its parent does: the parent holds the other end of standard input, so
   * its end of file means the loop is gone and nobody would ever kill this writer.
   */
  private static void watchParent() {
    Thread t = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // the parent sends nothing
        }
      } catch (java.io.IOException e) {
        // treated as the parent's end
      }
      Runtime.getRuntime().halt(3);
    }, "crash-parent-watch");
    t.setDaemon(true);
    t.start();
  }

  private static void ack(PrintStream out, long seq) {
    synchronized (out) {
      out.println("ack " + seq + " " + System.currentTimeMillis());
      out.flush();
    }
  }
}
