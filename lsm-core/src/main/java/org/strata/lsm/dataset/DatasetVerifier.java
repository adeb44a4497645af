package org.strata.lsm.dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.Utf8;

/**
 * Checks a dataset's indexes against each other: every primary record decodes and lives in the
 * partition its key hashes to, and every secondary index holds an entry for each record that has
 * its field. Under {@code eager} maintenance a secondary entry without a matching record is a fault;
 * under {@code lazy} it is a stale entry, counted, which queries filter out.
 */
public final class DatasetVerifier {
  private static final int MAX_FAULTS = 100;

  private DatasetVerifier() {}

  /**
   * The outcome.
   *
   * @param records primary records checked
   * @param entries secondary entries checked, per index name
   * @param staleEntries secondary entries with no matching record (lazy maintenance), per index
   * @param faults disagreements, at most {@value #MAX_FAULTS}; empty when the dataset is consistent
   */
  public record Report(long records, Map<String, Long> entries, Map<String, Long> staleEntries,
      List<String> faults) {}

  static Report verify(Dataset ds) {
    DatasetConfig config = ds.config();
    List<SecondaryIndexSpec> secondaries = config.secondaryIndexes();
    long records = 0;
    Map<String, Long> entries = new java.util.LinkedHashMap<>();
    Map<String, Long> stale = new java.util.LinkedHashMap<>();
    secondaries.forEach(s -> {
      entries.put(s.name(), 0L);
      stale.put(s.name(), 0L);
    });
    List<String> faults = new ArrayList<>();
    List<Partition> parts = ds.partitions();
    for (int p = 0; p < parts.size(); p++) {
      Partition part = parts.get(p);
      List<TreeSet<byte[]>> expected = new ArrayList<>();
      for (int i = 0; i < secondaries.size(); i++) {
        expected.add(new TreeSet<>(Arrays::compareUnsigned));
      }
      try (ScanCursor c = part.primary().scan(null, null)) {
        while (c.hasNext()) {
          KeyValue kv = c.next();
          records++;
          String key = shown(kv.key());
          try {
            Utf8.decode(kv.key(), "primary key");
          } catch (IllegalArgumentException e) {
            fault(faults, "record " + key + " in partition " + p + ": " + e.getMessage());
          }
          if (ds.partitionOf(kv.key()) != p) {
            fault(faults, "record " + key + " is in partition " + p + " but hashes to "
                + ds.partitionOf(kv.key()));
          }
          Map<String, String> fields;
          try {
            fields = RecordCodec.decode(kv.value());
          } catch (IllegalArgumentException e) {
            fault(faults, "record " + key + " in partition " + p + " does not decode: "
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
        try (ScanCursor c = part.secondary(i).scan(null, null)) {
          while (c.hasNext()) {
            byte[] k = c.next().key();
            seen++;
            if (!want.remove(k)) {
              extra++;
              if (config.maintenance() == SecondaryMaintenance.EAGER) {
                fault(faults, "index " + name + " of partition " + p + " has " + describe(k)
                    + " but the primary record does not match it");
              }
            }
          }
        }
        for (byte[] missing : want) {
          fault(faults, "index " + name + " of partition " + p + " lacks " + describe(missing));
        }
        entries.merge(name, seen, Long::sum);
        stale.merge(name, extra, Long::sum);
      }
    }
    return new Report(records, entries, stale, List.copyOf(faults));
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

  private static void fault(List<String> faults, String f) {
    if (faults.size() < MAX_FAULTS) {
      faults.add(f);
    }
  }
}
