package org.strata.crash;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.Durability;

/**
 * One store or dataset the loop kills writers of: a writer kind, a merge-policy configuration and
 * a durability mode, with the configuration text the child opens it with. Memory components are
 * tiny (64 KB) and the disk is throttled so that flushes and merges run all the time.
 *
 * @param writer what writes
 * @param policy the configuration's name: a merge policy, {@code triad-mem} (TRIAD-MEM with a
 *     constant policy) or {@code triad} (TRIAD-MEM, TRIAD-LOG and the {@code triad-disk} policy)
 * @param durability {@code sync}, {@code group}, {@code none} or (a store without TRIAD) {@code
 *     unlogged}
 * @param configJson the store or dataset configuration
 */
public record CrashTarget(WriterKind writer, String policy, Durability durability,
    String configJson) {

  /** Merge-policy configurations a store is tested under, by name. */
  private static final String[][] STORE_POLICIES = {
      {"constant", "{\"name\": \"constant\", \"parameters\": {\"num-components\": \"3\"}}"},
      {"binomial", "{\"name\": \"binomial\", \"parameters\": {\"num-components\": \"4\"}}"},
      {"tiering", "{\"name\": \"tiering\", \"parameters\": {\"size-ratio\": \"3\"}}"},
      {"leveling", "{\"name\": \"leveling\", \"parameters\": {\"size-ratio\": \"4\"}}"},
      {"partitioned-leveling", "{\"name\": \"partitioned-leveling\", \"parameters\":"
          + " {\"file-size\": \"128KB\", \"size-ratio\": \"4\", \"l0-trigger\": \"2\"}}"},
      {"triad-disk", "{\"name\": \"triad-disk\", \"parameters\":"
          + " {\"file-size\": \"128KB\", \"size-ratio\": \"4\", \"l0-trigger\": \"2\"}}"},
      {"lsa", "{\"name\": \"lsa\", \"parameters\": {\"fanout\": \"4\", \"node-size\": \"64KB\"}}"},
      {"iam", "{\"name\": \"iam\", \"parameters\": {\"fanout\": \"4\", \"node-size\": \"64KB\","
          + " \"mixed-level\": \"2\", \"max-sequences\": \"2\"}}"},
      {"triad-mem", "{\"name\": \"constant\", \"parameters\": {\"num-components\": \"3\"}}"},
      {"triad", "{\"name\": \"triad-disk\", \"parameters\":"
          + " {\"file-size\": \"128KB\", \"size-ratio\": \"4\", \"l0-trigger\": \"2\"}}"},
  };
  /** Datasets take the standard policies (TRIAD-MEM is for standalone stores only). */
  private static final int DATASET_POLICIES = 6;

  /**
   * Every target for {@code writers}: each policy under {@code sync}, {@code group} and {@code
   * none}, and a store's under {@code unlogged} too unless it runs TRIAD-MEM or TRIAD-LOG (which
   * refuse it, as datasets do).
   */
  public static List<CrashTarget> all(List<WriterKind> writers) {
    List<CrashTarget> out = new ArrayList<>();
    for (WriterKind w : writers) {
      int n = w.dataset() ? DATASET_POLICIES : STORE_POLICIES.length;
      for (int i = 0; i < n; i++) {
        for (Durability d : Durability.values()) {
          if (d == Durability.UNLOGGED && (w.dataset() || STORE_POLICIES[i][0].equals("triad-mem")
              || STORE_POLICIES[i][0].equals("triad"))) {
            continue;
          }
          out.add(new CrashTarget(w, STORE_POLICIES[i][0], d,
              config(w, STORE_POLICIES[i][0], STORE_POLICIES[i][1], d, i)));
        }
      }
    }
    return out;
  }

  /** The target of {@link #all} with this writer, policy and durability. */
  public static CrashTarget of(WriterKind writer, String policy, Durability durability) {
    return all(List.of(writer)).stream()
        .filter(t -> t.policy().equals(policy) && t.durability() == durability).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no " + writer.configName()
            + " target with policy " + policy));
  }

  private static String config(WriterKind w, String name, String policy, Durability d, int i) {
    String store = """
        "merge-policy": %s,
         "memory-component": {"size": "64KB", "count": 2},
         "io": {"write-rate-limit": "2MB", "force-bytes": "64KB"},
         "log": {"durability": "%s", "group-commit-interval-ms": 10}%s"""
        .formatted(policy, d.configName(),
            name.equals("triad-mem") ? ",\n \"triad\": {\"mem\": true, \"hot-percent\": 5}"
                : name.equals("triad")
                    ? ",\n \"triad\": {\"mem\": true, \"log\": true, \"hot-percent\": 5}" : "");
    if (!w.dataset()) {
      return "{" + store + "}\n";
    }
    // Alternate eager maintenance over two partitions and lazy over one. Each partition has its
    // own log, so under group each loses its own window: the verifier follows a prefix per
    // partition.
    boolean eager = i % 2 == 0;
    int partitions = eager ? 2 : 1;
    return "{" + store + """
        ,
         "secondary-indexes": [{"name": "by_field1", "field": "field1"},
                               {"name": "by_field2", "field": "field2"}],
         "secondary-maintenance": "%s", "partitions": %d}
        """.formatted(eager ? "eager" : "lazy", partitions);
  }

  /** The target's directory name: {@code <writer>-<policy>-<durability>}. */
  public String name() {
    return writer.configName() + "-" + policy + "-" + durability.configName();
  }

  /** The log's group-commit interval the configuration sets. */
  public long groupCommitMillis() {
    return 10;
  }
}
