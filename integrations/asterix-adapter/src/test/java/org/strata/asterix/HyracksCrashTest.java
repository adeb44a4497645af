package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;

/**
 * SIGKILLs a process that feeds a real Hyracks tree under Strata's tiering and greedy, at random
 * points (often while merges run), then opens the index again in this process: every key of every
 * flush the child reported complete is there with its value, nothing is duplicated or out of
 * order, the adapter's level file is whole and gives every merged component that survived its
 * level (at least 1) and its flushed bytes (the flushes it spans times the flush size), and the
 * policy goes on merging from there without a failure.
 */
class HyracksCrashTest {
  static final Map<String, String> POLICY = Map.of("policy", "tiering", "size-ratio", "3",
      "preemptive", "false");
  private static final int KILLS = 6;
  private static final int BATCH = 2000;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  @Test
  void sigkillLosesNoFlushedKeyAndTheAdapterGoesOn() throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-crash-").toFile();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Random rnd = new Random(20261122);
    int acknowledged = 0; // keys below this were in a flush the child reported complete
    int start = 0;
    int killsWithMergesLive = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      List<String> cmd = List.of(java, "-Xmx256m", "-cp", classPath(),
          HyracksCrashChild.class.getName(), dir.getPath(), Integer.toString(start),
          Integer.toString(BATCH));
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      int flushesBeforeKill = 3 + rnd.nextInt(8);
      int seen = 0;
      int liveMerges = 0;
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while (seen < flushesBeforeKill && (line = out.readLine()) != null) {
          if (line.startsWith("FLUSHED ")) {
            String[] f = line.split(" ");
            acknowledged = Integer.parseInt(f[1]);
            liveMerges = Integer.parseInt(f[2]);
            seen++;
          }
        }
        Thread.sleep(rnd.nextInt(40));
        p.destroyForcibly(); // SIGKILL
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(seen).as("flushes the child reported before kill %d", kill)
          .isEqualTo(flushesBeforeKill);
      if (liveMerges > 0) {
        killsWithMergesLive++;
      }

      StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin("greedy", Map.of()),
          StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
      HyracksTree tree = new HyracksTree(dir, new StrataMergePolicyFactory().createMergePolicy(
          POLICY, null), io, new StrataPageWriteCallbackFactory(0, 0), 256, false);
      try {
        BitSet keys = tree.scanKeys(); // also fails on a wrong value or a key out of order
        assertThat(keys.nextClearBit(0)).as("first missing key after kill %d", kill)
            .isGreaterThanOrEqualTo(acknowledged);
        int end = keys.length();
        assertThat(keys.cardinality()).as("keys are a prefix").isEqualTo(end);
        assertThat(end % BATCH).as("only whole flushes survive").isZero();
        checkSavedLevels(tree, dir, kill);
        for (int k = end; k < end + BATCH; k++) {
          tree.insert(k, k * 7);
        }
        tree.flush();
        Quiescence.await(tree, io);
        assertThat(io.operationsFailed()).isZero();
        assertThat(tree.scanKeys().cardinality()).isEqualTo(end + BATCH);
        start = end + BATCH;
      } finally {
        tree.closeKeepingFiles();
        io.close();
      }
      Path levels = dir.toPath().resolve("index").resolve(LevelFile.NAME);
      if (Files.exists(levels)) {
        assertThat(Files.readAllLines(levels).get(0)).startsWith(LevelFile.HEADER + " ");
      }
    }
    assertThat(killsWithMergesLive).as("kills while merges were running").isPositive();
  }

  /** Every merged component has its level and flushed bytes in the level file. */
  private static void checkSavedLevels(HyracksTree tree, File dir, int kill) {
    Map<String, LevelFile.Entry> saved = new LevelFile(dir.toPath().resolve("index")).read()
        .entries();
    long flushSize = -1;
    Map<String, Long> sizes = new java.util.LinkedHashMap<>();
    synchronized (tree.index().getOperationTracker()) {
      for (var c : tree.index().getDiskComponents()) {
        sizes.put(HyracksMergeContext.name(c), c.getComponentSize());
      }
    }
    for (Map.Entry<String, Long> e : sizes.entrySet()) {
      String[] range = e.getKey().split("_");
      if (range[0].equals(range[1])) {
        if (flushSize >= 0) {
          assertThat(e.getValue()).as("equal batches flush equal components").isEqualTo(flushSize);
        }
        flushSize = e.getValue();
      }
    }
    for (Map.Entry<String, Long> e : sizes.entrySet()) {
      String[] range = e.getKey().split("_");
      long span = Long.parseLong(range[1]) - Long.parseLong(range[0]) + 1;
      if (span > 1) {
        LevelFile.Entry entry = saved.get(e.getKey());
        assertThat(entry).as("saved entry of merged component %s after kill %d; components %s",
            e.getKey(), kill, sizes).isNotNull();
        assertThat(entry.level()).isGreaterThanOrEqualTo(1);
        if (flushSize > 0) {
          assertThat(entry.flushedBytes()).isEqualTo(span * flushSize);
        }
      }
    }
  }
}
