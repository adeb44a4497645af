package org.strata.peers;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleBuilder;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleReference;
import org.apache.hyracks.dataflow.common.data.accessors.ITupleReference;
import org.apache.hyracks.storage.am.btree.impls.RangePredicate;
import org.apache.hyracks.storage.am.btree.util.BTreeUtils;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicyFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.ConcurrentMergePolicyFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.ConstantMergePolicyFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.GreedyScheduler;
import org.apache.hyracks.storage.am.lsm.common.impls.NoMergePolicyFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.impls.PrefixMergePolicyFactory;
import org.apache.hyracks.storage.common.IIndexCursor;
import org.apache.hyracks.storage.common.MultiComparator;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.twophase.GeneratedRecord;
import org.strata.twophase.IoBudgetUse;
import org.strata.twophase.PhaseSetup;
import org.strata.twophase.SystemUnderTest;
import org.strata.twophase.TargetStats;
import org.strata.twophase.TwoPhaseTarget;

/**
 * A standalone Hyracks 0.3.8 LSM B+-tree ({@link HyracksLsmTree}) as a system under test, with
 * Hyracks' own merge policy (default {@code prefix}), its {@code GreedyScheduler} with AsterixDB
 * 0.9.8's defaults (2 concurrent flushes, 8 scheduled and 2 running merges), and its own page-write
 * throttle and forces ({@link HyracksPageWrites}). Tuples are (key bytes, raw value bytes).
 *
 * <p>A write first tries {@code tryUpsert}, which Hyracks refuses when no memory component can
 * take it (both are full: the flush is behind, or held back while the policy says merges lag);
 * then it waits in {@code upsert}. Each refused try is a stall, timed until the write goes in.
 * Pending merge bytes are the bytes of the components that scheduled or running merges read.
 * There is no write-ahead log: Hyracks keeps none (AsterixDB's is outside the tree).
 */
public final class HyracksTarget implements TwoPhaseTarget {
  /** Hyracks' merge policies by name. */
  private static final Map<String, ILSMMergePolicyFactory> POLICIES = Map.of(
      "prefix", new PrefixMergePolicyFactory(), "constant", new ConstantMergePolicyFactory(),
      "concurrent", new ConcurrentMergePolicyFactory(), "no-merge", new NoMergePolicyFactory());

  private final String label;
  private final StoreConfig store;
  private final NamedPlugin policy;
  private final long loadMemory;

  /**
   * @param label the label in a comparison
   * @param store memory, I/O budget, forces, page size and buffer cache come from here
   * @param policy a Hyracks merge policy and its parameters ({@link #policyNames()})
   * @param loadMemory memory component bytes while loading
   */
  public HyracksTarget(String label, StoreConfig store, NamedPlugin policy, long loadMemory) {
    if (!POLICIES.containsKey(policy.name())) {
      throw new IllegalArgumentException("merge-policy.name: '" + policy.name()
          + "' is not allowed; allowed: " + String.join(", ", policyNames()));
    }
    Set<String> allowed = POLICIES.get(policy.name()).getPropertiesNames();
    for (String k : policy.parameters().keySet()) {
      if (!allowed.contains(k)) {
        throw new IllegalArgumentException("merge-policy.parameters: Hyracks' '"
            + policy.name() + "' has no parameter '" + k + "'; allowed: "
            + new java.util.TreeSet<>(allowed));
      }
    }
    if (!policy.parameters().keySet().containsAll(allowed)) {
      throw new IllegalArgumentException("merge-policy.parameters: Hyracks' '" + policy.name()
          + "' needs every one of " + new java.util.TreeSet<>(allowed) + " (it has no"
          + " defaults), got " + new java.util.TreeSet<>(policy.parameters().keySet()));
    }
    this.label = label;
    this.store = store;
    this.policy = policy;
    this.loadMemory = loadMemory;
  }

  /** The Hyracks merge policies a comparison may name. */
  public static Set<String> policyNames() {
    return new java.util.TreeSet<>(POLICIES.keySet());
  }

  /**
   * The default policy: {@code prefix} with {@code max-mergable-component-size} 32 memory
   * components (AsterixDB's default is 1 GB; scaled with the memory component as RocksDB's level
   * sizes are) and {@code max-tolerance-component-count} 5 (AsterixDB's default).
   */
  public static NamedPlugin defaultPolicy(long memoryComponentBytes) {
    return new NamedPlugin("prefix", Map.of("max-mergable-component-size",
        Long.toString(32 * memoryComponentBytes), "max-tolerance-component-count", "5"));
  }

  @Override
  public String system() {
    return "hyracks";
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public String description() {
    return String.format(Locale.ROOT, "Hyracks 0.3.8 standalone LSM B+-tree: policy %s %s,"
            + " GreedyScheduler (2 flushes, 8 scheduled / 2 running merges), memory component %s"
            + " x %d, SleepRateLimiter %s, force every %s, no write-ahead log", policy.name(),
        new java.util.TreeMap<>(policy.parameters()), store.memoryComponent().size(),
        store.memoryComponent().count(), store.io().writeRateLimit().bytes() == 0 ? "none"
            : store.io().writeRateLimit() + "/s",
        store.io().forceBytes());
  }

  @Override
  public List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured) {
    return List.of(new NamedPlugin("hyracks-greedy", Map.of()));
  }

  @Override
  public NamedPlugin testingScheduler(NamedPlugin configured) {
    return new NamedPlugin("hyracks-greedy", Map.of());
  }

  @Override
  public SystemUnderTest open(Path dir, PhaseSetup setup) throws Exception {
    boolean load = setup.kind() == PhaseSetup.Kind.LOAD;
    long memory = load ? loadMemory : store.memoryComponent().size().bytes();
    ILSMMergePolicy p = POLICIES.get(policy.name()).createMergePolicy(
        new LinkedHashMap<>(policy.parameters()), null);
    GreedyScheduler scheduler = new GreedyScheduler(Thread::new,
        NoOpIoOperationFailedCallback.INSTANCE, 2, 8, 2);
    HyracksIoCounters counters = new HyracksIoCounters();
    HyracksPageWrites pageWrites = new HyracksPageWrites(
        load ? 0 : store.io().writeRateLimit().bytes(),
        store.io().forceBytes().bytes(), (int) store.io().pageSize().bytes(), counters);
    int pages = (int) Math.max(2, memory / (int) store.io().pageSize().bytes());
    int cachePages = (int) Math.max(64,
        store.pageCache().size().bytes() / (int) store.io().pageSize().bytes());
    try {
      HyracksLsmTree tree = new HyracksLsmTree(dir.toFile(), HyracksLsmTree.Layout.BYTES_BYTES,
          p, scheduler, counters, pageWrites, store.memoryComponent().count(), pages,
          (int) store.io().pageSize().bytes(), cachePages,
              !java.nio.file.Files.exists(dir.resolve("index")));
      return new Open(tree, scheduler, counters, pageWrites);
    } catch (Exception e) {
      scheduler.close();
      throw e;
    }
  }

  // close() throws what Hyracks' close throws, as Exception; ArrayTupleBuilder is deprecated in
  // Hyracks 0.9.8 without a replacement its LSM accessors take.
  @SuppressWarnings({"try", "deprecation"})
  private static final class Open implements SystemUnderTest {
    private final HyracksLsmTree tree;
    private final ILSMIOOperationScheduler scheduler;
    private final HyracksIoCounters counters;
    private final HyracksPageWrites pageWrites;
    private final ThreadLocal<Writer> writers;
    private final AtomicLong userBytes = new AtomicLong();
    private final AtomicLong stalls = new AtomicLong();
    private final AtomicLong stallNanos = new AtomicLong();
    private final AtomicInteger blocked = new AtomicInteger();

    /** One thread's accessor and tuple buffers. */
    private record Writer(ILSMIndexAccessor accessor, ArrayTupleBuilder builder,
        ArrayTupleReference tuple) {}

    Open(HyracksLsmTree tree, ILSMIOOperationScheduler scheduler, HyracksIoCounters counters,
        HyracksPageWrites pageWrites) {
      this.tree = tree;
      this.scheduler = scheduler;
      this.counters = counters;
      this.pageWrites = pageWrites;
      this.writers = ThreadLocal.withInitial(() -> new Writer(tree.createAccessor(),
          new ArrayTupleBuilder(2), new ArrayTupleReference()));
    }

    @Override
    public void write(GeneratedRecord record) throws Exception {
      byte[] k = record.keyBytes();
      byte[] v = record.valueBytes();
      Writer w = writers.get();
      w.builder().reset();
      w.builder().addField(k, 0, k.length);
      w.builder().addField(v, 0, v.length);
      w.tuple().reset(w.builder().getFieldEndOffsets(), w.builder().getByteArray());
      if (!w.accessor().tryUpsert(w.tuple())) {
        stalls.incrementAndGet();
        blocked.incrementAndGet();
        long t0 = System.nanoTime();
        try {
          w.accessor().upsert(w.tuple());
        } finally {
          stallNanos.addAndGet(System.nanoTime() - t0);
          blocked.decrementAndGet();
        }
      }
      userBytes.addAndGet(k.length + v.length);
    }

    @Override
    public byte[] read(String key) throws Exception {
      byte[] k = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      ArrayTupleBuilder kb = new ArrayTupleBuilder(1);
      kb.addField(k, 0, k.length);
      ArrayTupleReference kt = new ArrayTupleReference();
      kt.reset(kb.getFieldEndOffsets(), kb.getByteArray());
      MultiComparator cmp = BTreeUtils.getSearchMultiComparator(
          new IBinaryComparatorFactory[] {tree.layout().keyComparator()}, kt);
      ILSMIndexAccessor accessor = writers.get().accessor();
      IIndexCursor cursor = accessor.createSearchCursor(false);
      try {
        accessor.search(cursor, new RangePredicate(kt, kt, true, true, cmp, cmp));
        try {
          if (!cursor.hasNext()) {
            return null;
          }
          cursor.next();
          ITupleReference t = cursor.getTuple();
          return java.util.Arrays.copyOfRange(t.getFieldData(1), t.getFieldStart(1),
              t.getFieldStart(1) + t.getFieldLength(1));
        } finally {
          cursor.close();
        }
      } finally {
        cursor.destroy();
      }
    }

    @Override
    public void flush() throws Exception {
      tree.flush(writers.get().accessor());
    }

    @Override
    public void awaitMerges() throws InterruptedException {
      counters.awaitIdle(() -> counters.inFlight() > 0 || tree.merging());
    }

    @Override
    public TargetStats stats() {
      List<Long> sizes = tree.diskComponentSizes();
      long space = 0;
      StringBuilder shape = new StringBuilder("component MB, newest first:");
      for (long s : sizes) {
        space += s;
        shape.append(String.format(Locale.ROOT, " %.1f", s / 1048576.0));
      }
      double seconds = stallNanos.get() / 1e9;
      return new TargetStats(sizes.size(), counters.bytesFlushed(), counters.bytesMerged(),
          userBytes.get(), stalls.get(), seconds, blocked.get() > 0, tree.mergingBytes(), space,
          Map.of(org.strata.lsm.StallCause.MEMORY_FULL.jsonName(), new StallTotals(stalls.get(),
              seconds)), shape.toString())
          .withIoCounters(Map.of(IoBudgetUse.FLUSH_BYTES_ADMITTED, pageWrites.flushBytesAdmitted(),
              IoBudgetUse.MERGE_BYTES_ADMITTED, pageWrites.mergeBytesAdmitted(),
              "otherBytesAdmitted", pageWrites.otherBytesAdmitted(),
              ComparisonReport.HYRACKS_THROTTLE_WAIT, pageWrites.throttleWaitNanos()));
    }

    /**
     * Lets every flush and merge finish unthrottled (Hyracks fails a merge whose buffer cache
     * closes under it), then deactivates the tree, leaving its files.
     */
    @Override
    public void close() throws Exception {
      try {
        pageWrites.unthrottle();
        flush();
        awaitMerges();
        tree.closeKeepingFiles();
      } finally {
        ((Closeable) scheduler).close();
      }
    }
  }
}
