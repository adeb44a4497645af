package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.DatasetVerifier;

/**
 * Crash safety of datasets with real processes: {@code strata import --acks} with durability
 * {@code sync} runs in a child JVM on a dataset with two secondary indexes and is killed with
 * SIGKILL at random moments, again and again, while its trees flush and merge. After every kill
 * the dataset is reopened: the primary and secondary indexes agree (verify), and the records are
 * exactly those after some prefix of the file's lines that includes every acknowledged line.
 */
class DatasetCrashTest {
  private static final int LINES = 40_000;
  private static final int KEYS = 1500;

  @TempDir Path tmp;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  /** Line {@code n} (1-based) of round {@code round}'s file: a delete every 11th, else an upsert. */
  private static String line(int round, int n, StringBuilder sb) {
    sb.setLength(0);
    String key = "user" + (n * 7919L % KEYS);
    if (n % 11 == 0) {
      return sb.append("{\"op\":\"delete\",\"key\":\"").append(key).append("\"}").toString();
    }
    return sb.append("{\"op\":\"upsert\",\"key\":\"").append(key)
        .append("\",\"fields\":{\"field1\":\"v").append(n % 5).append("\",\"field2\":\"w")
        .append((n / 3) % 4).append("\",\"seq\":\"").append(n).append("\",\"round\":\"")
        .append(round).append("\",\"payload\":\"").append("x".repeat(150)).append("\"}}")
        .toString();
  }

  private static Map<String, String> fields(int round, int n) {
    Map<String, String> f = new TreeMap<>();
    f.put("field1", "v" + n % 5);
    f.put("field2", "w" + (n / 3) % 4);
    f.put("seq", Integer.toString(n));
    f.put("round", Integer.toString(round));
    f.put("payload", "x".repeat(150));
    return f;
  }

  @Test
  void sigkillDuringImportLeavesAgreeingIndexesAndEveryAcknowledgedLine() throws Exception {
    runKills("eager", 3, 6);
    runKills("lazy", 1, 4);
  }

  private void runKills(String maintenance, int partitions, int kills) throws Exception {
    Path dir = tmp.resolve("ds-" + maintenance);
    Path config = tmp.resolve(maintenance + ".json");
    Files.writeString(config, """
        {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
         "merge-scheduler": {"name": "fair"},
         "memory-component": {"size": "96KB", "count": 2},
         "io": {"write-rate-limit": "2MB", "force-bytes": "64KB"},
         "log": {"durability": "sync"},
         "secondary-indexes": [{"name": "by_field1", "field": "field1"},
                               {"name": "by_field2", "field": "field2"}],
         "secondary-maintenance": "%s", "partitions": %d}
        """.formatted(maintenance, partitions));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Random rnd = new Random(20261122L + partitions);
    Map<String, Map<String, String>> state = new HashMap<>(); // verified state before a round
    int killsDuringFlushOrMerge = 0;
    long totalAcked = 0;
    for (int round = 0; round < kills; round++) {
      Path file = tmp.resolve("round" + round + ".jsonl");
      try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        StringBuilder sb = new StringBuilder();
        for (int n = 1; n <= LINES; n++) {
          w.write(line(round, n, sb));
          w.write('\n');
        }
      }
      List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-Dstrata.log.level=info",
          "-Dstrata.log.file=" + tmp.resolve("child.log"),
          "-cp", classPath(), Main.class.getName(), "import", "--dir", dir.toString(),
          "--config", config.toString(), "--file", file.toString(), "--acks"));
      Process p = new ProcessBuilder(cmd).start();
      AtomicInteger open = new AtomicInteger();
      Thread logReader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
            StandardCharsets.UTF_8))) {
          String l;
          while ((l = r.readLine()) != null) {
            if (l.contains("flush started") || l.contains("merge started")) {
              open.incrementAndGet();
            } else if (l.contains("flush finished") || l.contains("merge finished")) {
              open.decrementAndGet();
            }
          }
        } catch (Exception ignored) {
          // the process died
        }
      });
      logReader.start();
      AtomicLong acked = new AtomicLong(0);
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
          String l;
          while ((l = r.readLine()) != null) {
            if (l.startsWith("acked ")) {
              acked.set(Long.parseLong(l.substring(6).trim()));
            }
          }
        } catch (Exception ignored) {
          // the process died
        }
      });
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (acked.get() == 0 && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(p.isAlive()).as("the import must be running before it is killed").isTrue();
      Thread.sleep(300 + rnd.nextInt(1500));
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      reader.join(10_000);
      logReader.join(10_000);
      if (open.get() > 0) {
        killsDuringFlushOrMerge++;
      }
      totalAcked += acked.get();
      state = check(dir, round, (int) acked.get(), state);
    }
    System.out.printf("dataset crash test (%s, %d partitions): %d SIGKILLs, %d during a flush or"
        + " merge; %d lines acknowledged%n", maintenance, partitions, kills,
        killsDuringFlushOrMerge, totalAcked);
    try (Dataset ds = Dataset.open(dir, null)) {
      long flushes = ds.treeStats().values().stream().mapToLong(s -> s.flushes()).sum();
      assertThat(flushes).as("flushes across the kills").isGreaterThan(10);
    }
  }

  /** Checks the reopened dataset; returns its records, the state the next round starts from. */
  private static Map<String, Map<String, String>> check(Path dir, int round, int acked,
      Map<String, Map<String, String>> before) {
    try (Dataset ds = Dataset.open(dir, null)) {
      DatasetVerifier.Report report = ds.verify();
      assertThat(report.faults()).as("round %d: indexes agree", round).isEmpty();
      if (ds.config().maintenance().configName().equals("eager")) {
        assertThat(report.staleEntries().values()).allMatch(n -> n == 0);
      }
      Map<String, Map<String, String>> actual = new HashMap<>();
      int maxSeq = 0;
      for (int k = 0; k < KEYS; k++) {
        String key = "user" + k;
        var r = ds.get(key);
        if (r.isPresent()) {
          actual.put(key, r.get().fields());
          if (r.get().fields().get("round").equals(Integer.toString(round))) {
            maxSeq = Math.max(maxSeq, Integer.parseInt(r.get().fields().get("seq")));
          }
        }
      }
      // The applied prefix M: at least the acknowledged lines and the newest upsert seen; at most
      // up to the next upsert after it (only deletes can hide in between).
      int lo = Math.max(acked, maxSeq);
      int hi = lo + 1;
      while (hi <= LINES && hi % 11 == 0) {
        hi++;
      }
      Map<String, Map<String, String>> model = new HashMap<>(before);
      int matched = -1;
      for (int n = 1; n < hi && n <= LINES; n++) {
        String key = "user" + (n * 7919L % KEYS);
        if (n % 11 == 0) {
          model.remove(key);
        } else {
          model.put(key, fields(round, n));
        }
        if (n >= lo && model.equals(actual)) {
          matched = n;
          break;
        }
      }
      if (lo == 0 && before.equals(actual)) {
        matched = 0;
      }
      assertThat(matched).as("round %d: the dataset equals the file's first M lines for some M"
          + " >= %d acknowledged", round, acked).isGreaterThanOrEqualTo(acked);
      for (int v = 0; v < 5; v++) {
        String value = "v" + v;
        List<String> expected = actual.entrySet().stream()
            .filter(e -> e.getValue().get("field1").equals(value)).map(Map.Entry::getKey)
            .sorted().toList();
        assertThat(ds.queryEq("by_field1", "v" + v)).extracting(DatasetRecord::key)
            .as("round %d: field1 = v%d", round, v).containsExactlyElementsOf(expected);
      }
      return actual;
    }
  }
}
