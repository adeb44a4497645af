package org.strata.lsm.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Predicate;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.Utf8;

/**
 * The reads of a {@link Dataset} that span partitions: a primary-key scan that merges the
 * partitions' primary trees in key order, and secondary queries by the paper's plan (scan the
 * secondary index of every partition for matching primary keys, sort them, fetch each record from
 * the primary index, keep those whose field still matches). Stateless over the dataset's open
 * partitions.
 */
final class DatasetQueries {
  private final Path dir;
  private final DatasetConfig config;
  private final List<Partition> partitions;

  DatasetQueries(Path dir, DatasetConfig config, List<Partition> partitions) {
    this.dir = dir;
    this.config = config;
    this.partitions = partitions;
  }

  /**
   * The first key a scan from {@code from} reads: {@code from} itself if {@code inclusive}, else
   * the smallest key above it ({@code from} + 0x00); refuses a negative {@code limit}.
   */
  static byte[] scanStart(String from, boolean inclusive, int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("scan limit must be 0 or more, got " + limit);
    }
    byte[] lo = from == null ? null : Dataset.keyBytes(from);
    return lo == null || inclusive ? lo : Arrays.copyOf(lo, lo.length + 1);
  }

  /**
   * Visits up to {@code limit} records with primary key at or above {@code lo} (null: from the
   * first) in primary-key order, merged across partitions, until {@code visitor} returns false.
   *
   * @return the number of records visited
   */
  int scan(byte[] lo, int limit, Predicate<DatasetRecord> visitor) {
    List<ScanCursor> cursors = new ArrayList<>();
    try {
      PriorityQueue<ScanHead> heads = new PriorityQueue<>(
          (a, b) -> Arrays.compareUnsigned(a.entry().key(), b.entry().key()));
      for (Partition p : partitions) {
        ScanCursor c = p.primary().scan(lo, null);
        cursors.add(c);
        if (c.hasNext()) {
          heads.add(new ScanHead(c.next(), c, p));
        }
      }
      int visited = 0;
      boolean more = true;
      while (more && visited < limit && !heads.isEmpty()) {
        ScanHead h = heads.poll();
        byte[] k = h.entry().key();
        visited++;
        more = visitor.test(new DatasetRecord(storedKey(k),
            h.partition().decodeRecord(k, h.entry().value())));
        if (more && h.cursor().hasNext()) {
          heads.add(new ScanHead(h.cursor().next(), h.cursor(), h.partition()));
        }
      }
      return visited;
    } finally {
      cursors.forEach(ScanCursor::close);
    }
  }

  /** A partition's next primary entry in a merged scan. */
  private record ScanHead(KeyValue entry, ScanCursor cursor, Partition partition) {}

  /**
   * A stored primary key as text. Keys are stored only after a strict conversion, so bytes that
   * are not UTF-8 are damage, reported as corruption rather than served changed.
   */
  private String storedKey(byte[] key) {
    try {
      return Utf8.decode(key, "stored primary key");
    } catch (IllegalArgumentException e) {
      throw new CorruptionException(dir, -1, e.getMessage() + " (bytes "
          + Arrays.toString(key) + ")");
    }
  }

  /**
   * The records whose {@code index} field lies in {@code [from, to]} (both inclusive, compared as
   * UTF-8 bytes; a null bound is open), sorted by primary key.
   */
  public List<DatasetRecord> queryRange(String index, String from, String to) {
    int idx = indexNumber(index);
    String field = config.secondaryIndexes().get(idx).field();
    byte[] fromBytes = from == null ? null : Utf8.encode(from, "lower bound of the query on",
        index);
    byte[] toBytes = to == null ? null : Utf8.encode(to, "upper bound of the query on", index);
    byte[] lo = fromBytes == null ? null : SecondaryKey.lowerBound(fromBytes);
    byte[] hi = toBytes == null ? null : SecondaryKey.upperBound(toBytes);
    List<byte[]> candidates = new ArrayList<>();
    for (Partition p : partitions) {
      try (ScanCursor c = p.secondary(idx).scan(lo, hi)) {
        while (c.hasNext()) {
          candidates.add(SecondaryKey.decode(c.next().key()).primaryKey());
        }
      }
    }
    candidates.sort(Arrays::compareUnsigned);
    List<DatasetRecord> out = new ArrayList<>();
    byte[] previous = null;
    for (byte[] pk : candidates) {
      if (previous != null && Arrays.equals(previous, pk)) {
        continue; // lazy maintenance may list a key under several (stale) values
      }
      previous = pk;
      Optional<Map<String, String>> rec = partitions.get(Dataset.partitionOf(pk,
          partitions.size())).get(pk);
      if (rec.isEmpty()) {
        continue; // deleted: a stale entry (lazy) or a delete that ran since the scan
      }
      String v = rec.get().get(field);
      if (v == null) {
        continue;
      }
      byte[] vb = Utf8.encode(v, "value of field", field);
      if ((fromBytes != null && Arrays.compareUnsigned(vb, fromBytes) < 0)
          || (toBytes != null && Arrays.compareUnsigned(vb, toBytes) > 0)) {
        continue; // the record changed: a stale entry (lazy) or an update since the scan
      }
      out.add(new DatasetRecord(storedKey(pk), rec.get()));
    }
    return out;
  }

  /** The number of secondary index {@code index}, or an error naming the indexes there are. */
  int indexNumber(String index) {
    List<SecondaryIndexSpec> all = config.secondaryIndexes();
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).name().equals(index)) {
        return i;
      }
    }
    List<String> names = all.stream().map(SecondaryIndexSpec::name).toList();
    throw new IllegalArgumentException("dataset " + dir + " has no secondary index '" + index
        + "'; its secondary indexes: " + (names.isEmpty() ? "none" : String.join(", ", names)));
  }
}
