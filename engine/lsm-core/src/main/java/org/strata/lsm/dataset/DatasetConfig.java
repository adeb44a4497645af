package org.strata.lsm.dataset;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.StoreConfig;

/**
 * The configuration of a dataset: the store settings every index of it uses (each tree gets its own
 * instance of the merge policy and scheduler), its secondary indexes, how they are maintained, and
 * its hash partitions. In JSON the store keys sit at the top level beside the dataset's own.
 * Budgets are the dataset's: {@code memory-component.size} is the active memory of all its indexes
 * together in all partitions (each partition gets an equal share), {@code io.write-rate-limit} the
 * I/O of all their flushes and merges, {@code page-cache.size} the decoded pages of all of them.
 *
 * @param store the store settings (docs/configuration.md); null means the defaults
 * @param secondaryIndexes {@code secondary-indexes}: default none (null)
 * @param maintenance {@code secondary-maintenance}: default {@code eager} (null)
 * @param partitions {@code partitions}: 1 to {@value #MAX_PARTITIONS}, default 1 (null)
 */
public record DatasetConfig(
    @JsonUnwrapped StoreConfig store,
    @JsonProperty("secondary-indexes") List<SecondaryIndexSpec> secondaryIndexes,
    @JsonProperty("secondary-maintenance") @JsonSetter(nulls = Nulls.SKIP)
        SecondaryMaintenance maintenance,
    @JsonProperty("partitions") @JsonSetter(nulls = Nulls.SKIP) Integer partitions) {
  /** Most partitions a dataset may have. */
  public static final int MAX_PARTITIONS = 64;
  /** Most secondary indexes (the tree number is one log byte, the primary takes one). */
  public static final int MAX_SECONDARY_INDEXES = 64;

  public DatasetConfig {
    store = store == null ? StoreConfig.defaults() : store;
    secondaryIndexes = secondaryIndexes == null ? List.of() : List.copyOf(secondaryIndexes);
    maintenance = maintenance == null ? SecondaryMaintenance.EAGER : maintenance;
    if (partitions == null) {
      partitions = 1;
    }
    if (store.triad().mem()) {
      throw InvalidConfigurationException.of("triad.mem", true, "false in a dataset: its indexes"
          + " seal and flush together behind one log, so TRIAD-MEM is for standalone stores");
    }
    if (store.memoryComponent().liveSize() != null) {
      throw InvalidConfigurationException.of("memory-component.live-size",
          store.memoryComponent().liveSize(), "no live size in a dataset: its indexes seal"
          + " together when their memory components reach memory-component.size");
    }
    if (store.triad().log()) {
      throw InvalidConfigurationException.of("triad.log", true, "false in a dataset: its indexes"
          + " share their partition's log, and TRIAD-LOG needs an index's own log, so it is for"
          + " standalone stores");
    }
    store.log().checkShareable();
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      throw InvalidConfigurationException.of("partitions", partitions, "1 to " + MAX_PARTITIONS);
    }
    if (secondaryIndexes.size() > MAX_SECONDARY_INDEXES) {
      throw InvalidConfigurationException.of("secondary-indexes", secondaryIndexes.size()
          + " indexes", "at most " + MAX_SECONDARY_INDEXES);
    }
    Set<String> names = new HashSet<>();
    Set<String> fields = new HashSet<>();
    for (SecondaryIndexSpec s : secondaryIndexes) {
      if (!names.add(s.name())) {
        throw InvalidConfigurationException.of("secondary-indexes.name", s.name(),
            "a name used by one index only; it names two");
      }
      if (!fields.add(s.field())) {
        throw InvalidConfigurationException.of("secondary-indexes.field", s.field(),
            "a field indexed once; two secondary indexes name it");
      }
    }
  }

  /** A dataset with the given store settings, no secondary index and one partition. */
  public static DatasetConfig of(StoreConfig store) {
    return new DatasetConfig(store, List.of(), SecondaryMaintenance.EAGER, 1);
  }

  /** This dataset with other store settings (the layout unchanged). */
  public DatasetConfig withStore(StoreConfig s) {
    return new DatasetConfig(s, secondaryIndexes, maintenance, partitions);
  }

  /** The secondary index named {@code name}, or null. */
  public SecondaryIndexSpec secondary(String name) {
    for (SecondaryIndexSpec s : secondaryIndexes) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /** True if {@code other} has the same indexes, maintenance and partitions (the layout). */
  public boolean sameLayout(DatasetConfig other) {
    return secondaryIndexes.equals(other.secondaryIndexes) && maintenance == other.maintenance
        && partitions.equals(other.partitions);
  }
}
