package org.strata.twophase;

import java.nio.file.Path;
import java.util.List;
import org.strata.lsm.config.NamedPlugin;

/**
 * A kind of system that a two-phase run measures: Strata (through its dataset API or through
 * {@code LsmStore.put}) or a peer. It opens the system on a directory for each phase; the runner
 * loads one directory and copies it for every later phase, so each phase starts from the same
 * loaded state.
 */
public interface TwoPhaseTarget {

  /** The system's name: {@code strata}, {@code rocksdb}, {@code hyracks}. */
  String system();

  /** A label that tells this configuration apart in a comparison, e.g. {@code rocksdb-leveled}. */
  String label();

  /** One sentence saying what runs (policy, scheduler, API, mapped options), for reports. */
  String description();

  /**
   * The running phases' schedulers: Strata runs one phase per configured scheduler; a peer runs
   * one phase with its own scheduler, named here.
   */
  List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured);

  /**
   * The secondary indexes that running phases may query ({@code running.queries.kind}
   * {@code secondary}); none unless the system has them.
   */
  default List<String> secondaryIndexes() {
    return List.of();
  }

  /** The testing phase's scheduler, as a name for reports. */
  NamedPlugin testingScheduler(NamedPlugin configured);

  /**
   * Opens the system in {@code dir} (empty for {@link PhaseSetup.Kind#LOAD}, else a copy of the
   * loaded directory).
   */
  SystemUnderTest open(Path dir, PhaseSetup setup) throws Exception;
}
