package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.sim.merge.MergeSimulator;

/**
 * A Hyracks index closed and opened again in a new tree object, with new policy and scheduler
 * objects, goes on as if it had never closed: tiering finds its levels again (from the level file)
 * and binomial its flush ordinals (from Hyracks' file names), so the component counts after each
 * flush still equal the simulator's, which never restarts. The level policies also find the largest
 * flush of the first life (the M of docs/papers/dostoevsky.md#fluid-merge-rules, kept in the level
 * file): the second life flushes half as much each time, so a policy that sized its levels by the
 * flushes seen since the reopen would fill them twice as early and leave the simulator.
 */
class ReopenOnHyracksTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource({"tiering,size-ratio,3,20,400,400", "tiering,size-ratio,3,18,600,300",
      "lazy-leveling,size-ratio,3,18,600,300", "leveling,size-ratio,3,18,600,300",
      "binomial,num-components,4,20,600,300"})
  void policiesContinueAcrossAReopen(String policy, String key, String value, int firstFlushes,
      int firstBatch, int secondBatch) throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-reopen-").toFile();
    Map<String, String> parameters = new HashMap<>(Map.of(key, value));
    if (!policy.equals("binomial")) {
      parameters.put("preemptive", "false");
    }
    Map<String, String> props = new HashMap<>(parameters);
    props.put("policy", policy);
    MergeSimulator sim = new MergeSimulator(Plugins.mergePolicy(new NamedPlugin(policy,
        parameters)));
    List<Integer> expected = new ArrayList<>();
    List<Integer> actual = new ArrayList<>();
    BitSet inserted = new BitSet();
    int next = 0;
    List<Long> sizes = new ArrayList<>();
    for (int life = 0; life < 2; life++) {
      StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin("fair", Map.of()),
          StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
      FlushRecordingPolicy recorder = new FlushRecordingPolicy(
          new StrataMergePolicyFactory().createMergePolicy(props, null));
      HyracksTree tree = new HyracksTree(dir, recorder, io,
          new StrataPageWriteCallbackFactory(0, 0), 64, life == 0);
      try {
        if (life == 1) {
          assertThat(tree.scanKeys()).isEqualTo(inserted);
        }
        int batch = life == 0 ? firstBatch : secondBatch;
        for (int f = 0; f < (life == 0 ? firstFlushes : 20); f++) {
          for (int i = 0; i < batch; i++) {
            tree.insert(next, next * 7);
            inserted.set(next++);
          }
          tree.flush();
          Quiescence.await(tree, io);
          actual.add(tree.diskComponentCount());
          List<Long> seen = recorder.flushSizes();
          sizes.add(seen.get(seen.size() - 1));
          sim.flush(sizes.get(sizes.size() - 1));
          expected.add(sim.checkpoint().components());
        }
        assertThat(tree.scanKeys()).isEqualTo(inserted);
      } finally {
        tree.closeKeepingFiles();
        io.close();
      }
    }
    assertThat(actual).as("component counts over both lives vs the simulator")
        .isEqualTo(expected);
    if (!policy.equals("binomial")) {
      assertThat(new File(dir, "index/" + LevelFile.NAME)).exists();
    }
  }
}
