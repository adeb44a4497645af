package org.strata.peers;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.strata.twophase.TwoPhaseConfig;

/**
 * {@code {"name": "rocksdb", "compaction": "leveled" | "universal", "label": ...}}: RocksDB with
 * the dataset's memory, I/O budget and forces mapped to its options ({@link RocksDbMapping}).
 *
 * @param label the label (default {@code rocksdb-<compaction>})
 * @param compaction {@code leveled} (default) or {@code universal}
 */
public record RocksDbSystem(@JsonProperty("label") String label,
    @JsonProperty("compaction") String compaction) implements SystemSpec {

  public RocksDbSystem {
    compaction = compaction == null ? "leveled" : compaction;
    if (!RocksDbMapping.STYLES.contains(compaction)) {
      throw new IllegalArgumentException("compaction: '" + compaction + "' is not allowed;"
          + " allowed: " + String.join(", ", RocksDbMapping.STYLES));
    }
    label = label == null ? "rocksdb-" + compaction : label;
  }

  @Override
  public String system() {
    return "rocksdb";
  }

  @Override
  public List<Run> targets(TwoPhaseConfig base, boolean loadOnly) {
    return List.of(new Run(base, new RocksDbTarget(label, new RocksDbMapping(
        base.dataset().store(), compaction), base.load().memoryComponent().bytes())));
  }
}
