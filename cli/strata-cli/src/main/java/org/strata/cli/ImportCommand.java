package org.strata.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.strata.lsm.Utf8;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.dataset.FeedParser;
import org.strata.lsm.dataset.FeedRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata import}: applies newline-delimited JSON records to a dataset. A bad line is
 * rejected with its number and reason (on stderr) and nothing of it is applied; the import goes on.
 * That includes a line that is not UTF-8 or longer than {@link FeedParser#MAX_LINE_BYTES}, and a
 * key, field name or value that is not valid Unicode text (e.g. the escape {@code "\ud800"}).
 * With several threads, lines are routed by primary-key hash so the lines of one key apply in file
 * order.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = "Apply newline-delimited JSON records to a dataset, one object a line: "
        + "{\"op\":\"upsert\",\"key\":\"k1\",\"fields\":{\"field0\":\"a\"}} or "
        + "{\"op\":\"delete\",\"key\":\"k1\"}. Prints counts of applied and rejected lines; each "
        + "rejected line is reported on stderr with its number and reason.")
final class ImportCommand implements Callable<Integer> {
  private static final int MAX_REPORTED = 100;

  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "Dataset directory (created if absent).")
  Path dir;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Dataset configuration JSON (docs/datasets.md); required for a new dataset,"
          + " saved with it. Default: the dataset's saved configuration.")
  Path config;

  @Option(names = "--file", required = true, paramLabel = "RECORDS.jsonl",
      description = "The records, one JSON object a line; '-' reads standard input.")
  String file;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
      description = "Writer threads; lines of one key keep their order.")
  int threads;

  @Option(names = "--acks", description = "Print 'acked N' after line N is applied (one thread"
      + " only); with durability sync, lines 1..N are then durable.")
  boolean acks;

  @Option(names = "--json", description = "Print the summary as one JSON object.")
  boolean json;

  @Spec CommandSpec spec;

  private record Line(long number, FeedRecord record) {}

  private record Rejection(long line, String reason) {}

  private static final Line END = new Line(-1, null);

  @Override
  public Integer call() throws Exception {
    if (threads < 1 || threads > 256) {
      throw new ParameterException(spec.commandLine(), "--threads must be from 1 to 256, got "
          + threads);
    }
    if (acks && threads != 1) {
      throw new ParameterException(spec.commandLine(), "--acks needs --threads 1 (with several"
          + " threads lines do not complete in file order)");
    }
    DatasetConfig cfg = config == null ? null
        : ConfigFiles.naming(config.toString(), () -> DatasetConfigJson.read(config));
    if (cfg != null) {
      ConfigFiles.check(config.toString(), "", cfg.store());
    }
    if (cfg == null && !Dataset.isDataset(dir)) {
      throw new ParameterException(spec.commandLine(), dir + " holds no dataset yet; give"
          + " --config FILE to create it");
    }
    ByteLineReader in;
    if (file.equals("-")) {
      in = new ByteLineReader(System.in, FeedParser.MAX_LINE_BYTES);
    } else {
      try {
        in = new ByteLineReader(Files.newInputStream(Path.of(file)), FeedParser.MAX_LINE_BYTES);
      } catch (NoSuchFileException e) {
        throw new ParameterException(spec.commandLine(), "--file " + file + " does not exist");
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FeedParser parser = new FeedParser();
    AtomicLong upserts = new AtomicLong();
    AtomicLong deletes = new AtomicLong();
    ConcurrentLinkedQueue<Rejection> rejections = new ConcurrentLinkedQueue<>();
    AtomicLong rejected = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long lines = 0;
    long start;
    double applySeconds;
    try (in; Dataset ds = StoreLog.open(spec, dir, () -> Dataset.open(dir, cfg))) {
      start = System.nanoTime();
      List<BlockingQueue<Line>> queues = new ArrayList<>();
      List<Thread> workers = new ArrayList<>();
      if (threads > 1) {
        for (int t = 0; t < threads; t++) {
          BlockingQueue<Line> q = new ArrayBlockingQueue<>(1024);
          queues.add(q);
          Thread w = new Thread(() -> {
            try {
              while (true) {
                Line l = q.take();
                if (l == END) {
                  return;
                }
                apply(ds, l, upserts, deletes, rejected, rejections, err);
              }
            } catch (Throwable e) {
              failure.compareAndSet(null, e);
              q.clear();
            }
          }, "strata-import-" + t);
          w.start();
          workers.add(w);
        }
      }
      ByteLineReader.Line text;
      while ((text = in.next()) != null && failure.get() == null) {
        lines++;
        if (text.tooLong()) {
          reject(lines, "line longer than " + FeedParser.MAX_LINE_BYTES + " bytes", rejected,
              rejections, err);
          continue;
        }
        if (FeedParser.isBlank(text.bytes(), 0, text.length())) {
          continue;
        }
        FeedRecord r;
        try {
          r = parser.parse(text.bytes(), 0, text.length());
        } catch (FeedParser.RejectedLineException e) {
          reject(lines, e.getMessage(), rejected, rejections, err);
          continue;
        }
        Line l = new Line(lines, r);
        if (threads == 1) {
          apply(ds, l, upserts, deletes, rejected, rejections, err);
          if (acks) {
            out.println("acked " + lines);
            out.flush();
          }
        } else {
          byte[] k = Utf8.encode(r.key(), "key"); // valid: the parser checked it
          int t = (int) Math.floorMod(KeyHash.hash64(k), (long) threads);
          while (!queues.get(t).offer(l, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            if (failure.get() != null) {
              break;
            }
          }
        }
      }
      for (int t = 0; t < workers.size(); t++) {
        if (failure.get() == null) {
          queues.get(t).put(END); // after the lines queued before it
        } else {
          queues.get(t).clear();
          workers.get(t).interrupt();
        }
      }
      for (Thread w : workers) {
        w.join();
      }
      if (failure.get() != null) {
        Throwable f = failure.get();
        throw f instanceof Exception e ? e : new RuntimeException(f);
      }
      applySeconds = (System.nanoTime() - start) / 1e9;
    }
    double totalSeconds = (System.nanoTime() - start) / 1e9;
    long applied = upserts.get() + deletes.get();
    if (json) {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      o.put("lines", lines);
      o.put("applied", applied);
      o.put("upserts", upserts.get());
      o.put("deletes", deletes.get());
      o.put("rejected", rejected.get());
      o.put("threads", threads);
      o.put("seconds", applySeconds);
      o.put("recordsPerSecond", applied / applySeconds);
      o.put("secondsIncludingFinalFlush", totalSeconds);
      ArrayNode list = o.putArray("rejections");
      rejections.stream().sorted((a, b) -> Long.compare(a.line(), b.line()))
          .forEach(r -> list.addObject().put("line", r.line()).put("reason", r.reason()));
      out.println(StatsJson.MAPPER.writeValueAsString(o));
    } else {
      out.printf("applied %d lines (%d upserts, %d deletes), rejected %d, in %.2f s: %.0f"
              + " records/s (%.2f s with the final flush)%n", applied, upserts.get(),
          deletes.get(), rejected.get(), applySeconds, applied / applySeconds, totalSeconds);
    }
    out.flush();
    return 0;
  }

  private static void apply(Dataset ds, Line l, AtomicLong upserts, AtomicLong deletes,
      AtomicLong rejected, ConcurrentLinkedQueue<Rejection> rejections, PrintWriter err) {
    try {
      l.record().applyTo(ds);
    } catch (IllegalArgumentException e) {
      reject(l.number(), e.getMessage(), rejected, rejections, err);
      return;
    }
    (l.record().op() == FeedRecord.Op.UPSERT ? upserts : deletes).incrementAndGet();
  }

  private static void reject(long line, String reason, AtomicLong rejected,
      ConcurrentLinkedQueue<Rejection> rejections, PrintWriter err) {
    long n = rejected.incrementAndGet();
    if (n <= MAX_REPORTED) {
      rejections.add(new Rejection(line, reason));
    }
    synchronized (err) {
      err.println("line " + line + ": rejected: " + reason);
      err.flush();
    }
  }
}
