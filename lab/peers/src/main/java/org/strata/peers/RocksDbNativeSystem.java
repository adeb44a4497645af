package org.strata.peers;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.strata.twophase.TwoPhaseConfig;

/**
 * {@code {"name": "rocksdb-native", "compaction": "leveled" | "universal", "shape": "comparison" |
 * "defaults", "executable": ..., "label": ...}}: RocksDB's own C++ {@code db_bench} loading the
 * comparison's records in a process of its own ({@link DbBenchLoad}); load-only comparisons
 * ({@code --phases load}) only, since {@code db_bench} has no two-phase driver. {@code shape}
 * {@code comparison} maps the dataset's memory components, Bloom bits and (leveled) level sizes
 * to {@code db_bench}'s flags as {@link RocksDbMapping} does for the JNI peer; {@code defaults}
 * leaves every option at {@code db_bench}'s own default but the compaction style, no compression
 * and no write-ahead log.
 *
 * @param label the label (default {@code rocksdb-native-<compaction>-<shape>})
 * @param compaction {@code leveled} (default) or {@code universal}
 * @param shape {@code comparison} (default) or {@code defaults}
 * @param executable the {@code db_bench} to run (default {@code db_bench}, looked up on the PATH)
 */
public record RocksDbNativeSystem(@JsonProperty("label") String label,
    @JsonProperty("compaction") String compaction, @JsonProperty("shape") String shape,
    @JsonProperty("executable") String executable) implements SystemSpec {

  /** The shapes allowed. */
  public static final List<String> SHAPES = List.of("comparison", "defaults");

  public RocksDbNativeSystem {
    compaction = compaction == null ? "leveled" : compaction;
    if (!RocksDbMapping.STYLES.contains(compaction)) {
      throw new IllegalArgumentException("compaction: '" + compaction + "' is not allowed;"
          + " allowed: " + String.join(", ", RocksDbMapping.STYLES));
    }
    shape = shape == null ? "comparison" : shape;
    if (!SHAPES.contains(shape)) {
      throw new IllegalArgumentException("shape: '" + shape + "' is not allowed; allowed: "
          + String.join(", ", SHAPES));
    }
    executable = executable == null ? "db_bench" : executable;
    label = label == null ? "rocksdb-native-" + compaction + "-" + shape : label;
  }

  @Override
  public String system() {
    return "rocksdb-native";
  }

  /** None: {@code db_bench} runs in a process of its own ({@link #load}). */
  @Override
  public List<Run> targets(TwoPhaseConfig base, boolean loadOnly) {
    return List.of();
  }

  /** The load this entry runs against {@code base}. */
  public DbBenchLoad load(TwoPhaseConfig base) {
    return new DbBenchLoad(this, base);
  }
}
