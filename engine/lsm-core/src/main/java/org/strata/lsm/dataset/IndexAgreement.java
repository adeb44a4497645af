package org.strata.lsm.dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.Utf8;

/**
 * The agreement check of a dataset's indexes ({@link DatasetVerifier}), partition by partition:
 * every primary record decodes and lives in the partition its key hashes to, and every secondary
 * index holds an entry for each record that has its field (an entry without its record is a fault
 * under {@code eager} maintenance, a stale entry under {@code lazy}); the counts and faults summed
 * over the partitions checked. Used by one thread; holds no lock.
 */
final class IndexAgreement {
  private final DatasetConfig config;
  private long records;
  private final Map<String, Long> entries = new LinkedHashMap<>();
  private final Map<String, Long> stale = new LinkedHashMap<>();
  private final List<String> faults = new ArrayList<>();

  /** Nothing counted yet, for a dataset of configuration {@code config}. */
  IndexAgreement(DatasetConfig config) {
    this.config = config;
    config.secondaryIndexes().forEach(s -> {
      entries.put(s.name(), 0L);
      stale.put(s.name(), 0L);
    });
  }

  /** Adds a fault, up to {@link DatasetVerifier#MAX_FAULTS}. */
  private void fault(String f) {
    if (faults.size() < DatasetVerifier.MAX_FAULTS) {
      faults.add(f);
    }
  }

  /** The report of every partition checked. */
  DatasetVerifier.Report report() {
    return new DatasetVerifier.Report(records, entries, stale, List.copyOf(faults));
  }

  /**
   * Checks partition {@code p}; {@code scanTree} scans tree 0 (the primary) or {@code i + 1} (the
   * {@code i}-th secondary index).
   */
  void checkPartition(int p, int partitions, IntFunction<ScanCursor> scanTree) {
    List<SecondaryIndexSpec> secondaries = config.secondaryIndexes();
    List<TreeSet<byte[]>> expected = new ArrayList<>();
    for (int i = 0; i < secondaries.size(); i++) {
      expected.add(new TreeSet<>(Arrays::compareUnsigned));
    }
    try (ScanCursor c = scanTree.apply(0)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        records++;
        String key = shown(kv.key());
        try {
          Utf8.decode(kv.key(), "primary key");
        } catch (IllegalArgumentException e) {
          fault("record " + key + " in partition " + p + ": " + e.getMessage());
        }
        int owner = Dataset.partitionOf(kv.key(), partitions);
        if (owner != p) {
          fault("record " + key + " is in partition " + p + " but hashes to " + owner);
        }
        Map<String, String> fields;
        try {
          fields = RecordCodec.decode(kv.value());
        } catch (IllegalArgumentException e) {
          fault("record " + key + " in partition " + p + " does not decode: "
              + e.getMessage());
          continue;
        }
        for (int i = 0; i < secondaries.size(); i++) {
          String v = fields.get(secondaries.get(i).field());
          if (v != null) {
            expected.get(i).add(SecondaryKey.encode(Utf8.encode(v, "value of field",
                secondaries.get(i).field()), kv.key()));
          }
        }
      }
    }
    for (int i = 0; i < secondaries.size(); i++) {
      String name = secondaries.get(i).name();
      TreeSet<byte[]> want = expected.get(i);
      long seen = 0;
      long extra = 0;
      try (ScanCursor c = scanTree.apply(i + 1)) {
        while (c.hasNext()) {
          byte[] k = c.next().key();
          seen++;
          if (!want.remove(k)) {
            extra++;
            if (config.maintenance() == SecondaryMaintenance.EAGER) {
              fault("index " + name + " of partition " + p + " has " + describe(k)
                  + " but the primary record does not match it");
            }
          }
        }
      }
      for (byte[] missing : want) {
        fault("index " + name + " of partition " + p + " lacks " + describe(missing));
      }
      entries.merge(name, seen, Long::sum);
      stale.merge(name, extra, Long::sum);
    }
  }

  private static String describe(byte[] entryKey) {
    try {
      SecondaryKey.Entry e = SecondaryKey.decode(entryKey);
      return "the entry (" + Utf8.printable(e.value()) + ", " + shown(e.primaryKey()) + ")";
    } catch (IllegalArgumentException e) {
      return "an undecodable entry " + Arrays.toString(entryKey);
    }
  }

  /** A stored key for a message: its text if it is UTF-8, else its bytes. */
  private static String shown(byte[] key) {
    try {
      return Utf8.printable(Utf8.decode(key, "key"), 200);
    } catch (IllegalArgumentException e) {
      return Arrays.toString(key);
    }
  }
}
