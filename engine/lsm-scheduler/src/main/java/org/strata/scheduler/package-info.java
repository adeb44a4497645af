/**
 * Strata's merge schedulers, implementations of the SPI's {@code MergeScheduler} listed in {@code
 * META-INF/services}: Luo &amp; Carey's {@link org.strata.scheduler.SingleThreadScheduler}, {@link
 * org.strata.scheduler.FairScheduler} and {@link org.strata.scheduler.GreedyScheduler}, and the
 * {@code leveldb-score} scheduler ({@link org.strata.scheduler.ConcurrentSchedulerFactories} holds
 * the factories of the concurrent ones). A scheduler decides when each flush or merge runs and may
 * pause and resume merges; {@link org.strata.scheduler.ThreadOperationRunner} is the thread pool
 * a store runs them on (a simulator or Hyracks supplies its own {@code OperationRunner}).
 */
package org.strata.scheduler;
