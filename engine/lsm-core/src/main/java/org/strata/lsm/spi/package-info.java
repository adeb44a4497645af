/**
 * The service provider interface of merge policies and merge schedulers, the only part of
 * lsm-core that lsm-policies and lsm-scheduler implement. A {@link
 * org.strata.lsm.spi.MergePolicy} (made by a {@link org.strata.lsm.spi.MergePolicyFactory} found by
 * name through {@code java.util.ServiceLoader}) sees one index through a {@link
 * org.strata.lsm.spi.MergeContext} ({@link org.strata.lsm.spi.RunInfo}, {@link
 * org.strata.lsm.spi.ComponentInfo}, {@link org.strata.lsm.spi.KeySketch} estimates) and schedules
 * {@link org.strata.lsm.spi.MergeRequest}s; {@link org.strata.lsm.spi.PolicyDriver} is the one loop
 * that asks it after a disk component was added. The run-list model every context shares is
 * {@link org.strata.lsm.spi.RunList} (window lookup, the check of a requested merge with its
 * reason, {@code apply}), with {@link org.strata.lsm.spi.RunPlacement} for where an output goes
 * and {@link org.strata.lsm.spi.RunListContext} for single-threaded contexts; {@link
 * org.strata.lsm.spi.PolicyHost} declares what a kind of context offers and refuses, at creation,
 * a policy that needs more. A {@link
 * org.strata.lsm.spi.MergeScheduler} (from a {@link org.strata.lsm.spi.MergeSchedulerFactory})
 * decides when each {@link org.strata.lsm.spi.IoOperation} runs, on an {@link
 * org.strata.lsm.spi.OperationRunner}. {@link org.strata.lsm.spi.Parameters} gives both typed,
 * validated access to their string parameters.
 */
package org.strata.lsm.spi;
