package org.strata.scheduler;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;
import org.strata.lsm.spi.OperationRunner;
import org.strata.lsm.spi.Parameters;

/** The factories of {@code fair}, {@code greedy} and {@code leveldb-score}. */
public final class ConcurrentSchedulerFactories {
  private ConcurrentSchedulerFactories() {}

  /** {@code fair}: no parameters. */
  public static final class Fair implements MergeSchedulerFactory {
    @Override
    public String name() {
      return "fair";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of();
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters) {
      return create(parameters, new ThreadOperationRunner("fair"));
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters, OperationRunner runner) {
      Parameters.of("merge-scheduler 'fair'", parameters, parameterNames());
      return new FairScheduler(runner);
    }
  }

  /** {@code greedy}: {@code max-concurrent-merges} (1), {@code recheck-ms} (100). */
  public static final class Greedy implements MergeSchedulerFactory {
    @Override
    public String name() {
      return "greedy";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of("max-concurrent-merges", "recheck-ms");
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters) {
      return create(parameters, new ThreadOperationRunner("greedy"));
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters, OperationRunner runner) {
      Parameters p = Parameters.of("merge-scheduler 'greedy'", parameters, parameterNames());
      return new GreedyScheduler(p.intValue("max-concurrent-merges", 1, 1, 1000),
          p.intValue("recheck-ms", 100, 0, 60_000), runner);
    }
  }

  /**
   * {@code leveldb-score}: LevelDB's single background merge thread. The score rule itself (which
   * level merges next) belongs to the {@code partitioned-leveling} policy, which asks for one merge
   * at a time by score; this scheduler runs them one by one in order.
   */
  public static final class LevelDbScore implements MergeSchedulerFactory {
    @Override
    public String name() {
      return "leveldb-score";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of();
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters) {
      return create(parameters, new ThreadOperationRunner("leveldb"));
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters, OperationRunner runner) {
      Parameters.of("merge-scheduler 'leveldb-score'", parameters, parameterNames());
      return new SingleThreadScheduler(runner);
    }
  }
}
