package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.sim.merge.MergeSimulator;

/**
 * Strata's policies and schedulers inside a real Hyracks 0.3.8 LSM B+-tree: for each policy and
 * scheduler, many explicit flushes of equal batches; after each flush (and the merges it set off)
 * the disk component count must equal what the same policy gives in Strata's merge-policy
 * simulator for the same flush sizes, stay within the policy's bound, and every key must be found
 * at the end.
 */
class PolicyOnHyracksTest {
  private static final int FLUSHES = 40;
  private static final int BATCH = 400;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    Map<String, Map<String, String>> policies = new java.util.LinkedHashMap<>();
    policies.put("binomial", Map.of("num-components", "4"));
    policies.put("min-latency", Map.of("num-components", "4"));
    policies.put("tiering", Map.of("size-ratio", "3", "preemptive", "false"));
    policies.put("size-tiered", Map.of("min-merge", "4", "max-component-count", "20"));
    for (Map.Entry<String, Map<String, String>> p : policies.entrySet()) {
      for (String scheduler : List.of("single-thread", "fair", "greedy")) {
        out.add(Arguments.of(p.getKey(), p.getValue(), scheduler));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} under {2}")
  @MethodSource("cases")
  void componentCountsMatchTheSimulatorAndEveryKeyIsFound(String policy,
      Map<String, String> parameters, String scheduler) throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-").toFile();
    Map<String, String> props = new HashMap<>(parameters);
    props.put(StrataMergePolicyFactory.POLICY, policy);
    StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin(scheduler, Map.of()),
        StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
    StrataPageWriteCallbackFactory pageWrites = new StrataPageWriteCallbackFactory(0, 64 << 10);

    MergePolicy simulated = Plugins.mergePolicy(new NamedPlugin(policy, parameters));
    MergeSimulator sim = new MergeSimulator(simulated);
    List<Integer> expected = new ArrayList<>();
    List<Integer> actual = new ArrayList<>();
    int maxTransient = 0;
    int[] keys = shuffledKeys(FLUSHES * BATCH, policy.hashCode());
    BitSet inserted = new BitSet();
    FlushRecordingPolicy recorder = new FlushRecordingPolicy(
        new StrataMergePolicyFactory().createMergePolicy(props, null));
    try (HyracksTree tree = new HyracksTree(dir, recorder, io, pageWrites, 64)) {
      for (int f = 0; f < FLUSHES; f++) {
        for (int i = f * BATCH; i < (f + 1) * BATCH; i++) {
          tree.insert(keys[i], keys[i] * 7);
          inserted.set(keys[i]);
        }
        tree.flush();
        maxTransient = Math.max(maxTransient, tree.diskComponentCount());
        Quiescence.await(tree, io);
        actual.add(tree.diskComponentCount());
        assertThat(recorder.flushSizes()).as("flushes seen by the policy").hasSize(f + 1);
        sim.flush(recorder.flushSizes().get(f));
        expected.add(sim.checkpoint().components());
        int bound = bound(policy, parameters, simulated);
        assertThat(actual.get(f)).as("components after flush %d: %s", f + 1,
            tree.diskComponentSizes()).isLessThanOrEqualTo(bound);
      }
      assertThat(actual).as("component counts after each flush, Hyracks vs simulator")
          .isEqualTo(expected);
      assertThat(maxTransient).as("components right after a flush, before its merges")
          .isLessThanOrEqualTo(simulated.componentConstraint() + 1);
      assertThat(sim.rejectedMerges()).isZero();
      assertThat(io.mergesScheduled()).as("merges run").isPositive();
      assertThat(io.operationsFailed()).isZero();

      assertThat(tree.scanKeys()).isEqualTo(inserted);
      Random r = new Random(7);
      for (int i = 0; i < 200; i++) {
        int k = keys[r.nextInt(keys.length)];
        assertThat(tree.get(k)).as("key %d", k).isEqualTo(k * 7);
      }
      assertThat(tree.get(-5)).isNull();
      assertThat(tree.get(FLUSHES * BATCH + 3)).isNull();
      assertThat(pageWrites.stats().forces()).as("forces every 64 KB").isPositive();
      assertThat(pageWrites.throttle().totalBytes()).isEqualTo(pageWrites.stats().bytes());
    } finally {
      io.close();
    }
  }

  /**
   * With {@code size-measure = file-bytes} the policy sees Hyracks' own component sizes: bounds and
   * keys hold, but tiering's decisions leave the simulator's (a merge output is a few pages
   * smaller than its inputs, so a level-2 run looks below its capacity and absorbs a push), which
   * is why {@code flushed-bytes} is the default.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"tiering", "size-tiered"})
  void fileBytesKeepTheBoundAndEveryKey(String policy) throws Exception {
    Map<String, String> parameters = policy.equals("tiering")
        ? Map.of("size-ratio", "3", "preemptive", "false")
        : Map.of("min-merge", "4", "max-component-count", "20");
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-fb-").toFile();
    Map<String, String> props = new HashMap<>(parameters);
    props.put("policy", policy);
    props.put("size-measure", "file-bytes");
    StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin("greedy", Map.of()),
        StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
    MergePolicy simulated = Plugins.mergePolicy(new NamedPlugin(policy, parameters));
    MergeSimulator sim = new MergeSimulator(simulated);
    List<Integer> expected = new ArrayList<>();
    List<Integer> actual = new ArrayList<>();
    FlushRecordingPolicy recorder = new FlushRecordingPolicy(
        new StrataMergePolicyFactory().createMergePolicy(props, null));
    BitSet inserted = new BitSet();
    try (HyracksTree tree = new HyracksTree(dir, recorder, io,
        new StrataPageWriteCallbackFactory(0, 0), 64)) {
      for (int f = 0; f < FLUSHES; f++) {
        for (int i = f * BATCH; i < (f + 1) * BATCH; i++) {
          tree.insert(i, i * 7);
          inserted.set(i);
        }
        tree.flush();
        Quiescence.await(tree, io);
        actual.add(tree.diskComponentCount());
        sim.flush(recorder.flushSizes().get(f));
        expected.add(sim.checkpoint().components());
        assertThat(actual.get(f)).isLessThanOrEqualTo(simulated.componentConstraint());
      }
      assertThat(tree.scanKeys()).isEqualTo(inserted);
      if (policy.equals("tiering")) {
        assertThat(actual).as("tiering on file bytes vs the simulator").isNotEqualTo(expected);
      }
    } finally {
      io.close();
    }
  }

  /** What a policy promises to keep once its merges are done. */
  private static int bound(String policy, Map<String, String> parameters, MergePolicy p) {
    switch (policy) {
      case "binomial":
      case "min-latency":
        return Integer.parseInt(parameters.get("num-components"));
      default:
        return p.componentConstraint();
    }
  }

  static int[] shuffledKeys(int n, long seed) {
    int[] keys = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i;
    }
    Random r = new Random(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = keys[i];
      keys[i] = keys[j];
      keys[j] = t;
    }
    return keys;
  }
}
