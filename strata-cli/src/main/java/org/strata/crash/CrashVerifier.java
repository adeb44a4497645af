package org.strata.crash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.strata.lsm.Durability;
import org.strata.lsm.KeyValue;
import org.strata.lsm.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.DatasetVerifier;
import org.strata.lsm.engine.StoreVerifier;

/**
 * Checks a store or dataset after its writer was killed. The writer wrote operations {@code
 * base.applied() + 1}, {@code + 2}, ... one at a time and the parent received acknowledgements up
 * to {@code lastAck} (all it wrote: the parent reads the channel to its end after the kill); at
 * most one operation, {@code lastAck + 1}, was in flight. The reopened content must
 * be exactly the {@link CrashModel} after the first {@code M} operations for some {@code M} (the
 * largest that fits is taken), with every value exactly the one its operation wrote (a value no
 * operation wrote, or a mix of two prefixes, matches no {@code M}). Then:
 *
 * <ul>
 *   <li>{@code sync}: {@code M >= lastAck} (every acknowledged write present; the in-flight one
 *       may or may not be);
 *   <li>{@code group}: the acknowledged writes after {@code M} are lost, allowed only within the
 *       documented window: each was acknowledged less than the group-commit interval plus {@link
 *       #GROUP_GRACE_MILLIS} before the kill (a SIGKILL loses what the group committer had not
 *       yet handed to the operating system);
 *   <li>{@code verify} finds no fault (for a dataset: in any file, and the secondary indexes agree
 *       with the primary; under eager maintenance no stale secondary entry), an equality query on
 *       each indexed field returns exactly the primary's records with that value;
 *   <li>after the check's clean close no temporary file is left and every component file is one a
 *       manifest lists.
 * </ul>
 */
final class CrashVerifier {
  /** Scheduling slack added to the group-commit interval in the {@code group} loss window. */
  static final long GROUP_GRACE_MILLIS = 2000;

  /**
   * The verdict on one kill.
   *
   * @param state the model the store holds (the base of the next run), or null if none matches
   * @param lost acknowledged writes missing
   * @param lostOutsideWindow lost writes the durability mode does not allow
   * @param faults what verify, the index agreement or the content check found
   * @param leftovers temporary or unlisted files left after the clean close
   */
  record Outcome(CrashModel state, long lost, long lostOutsideWindow, List<String> faults,
      List<String> leftovers) {
    boolean ok() {
      return state != null && lostOutsideWindow == 0 && faults.isEmpty() && leftovers.isEmpty();
    }
  }

  private CrashVerifier() {}

  static Outcome check(CrashTarget target, Path dir, CrashWorkload w, CrashModel base,
      ChildRun.Result run) throws IOException {
    List<String> faults = new ArrayList<>();
    // The child writes operation n + 1 only after acknowledging n, so lastAck + 1 is the last it
    // can have written (the one in flight).
    long last = run.lastAck() + 1;
    Map<String, Integer> owner = new HashMap<>();
    Map<String, String> actual = target.writer().dataset()
        ? readDataset(dir, faults, w, base, last, owner) : readStore(dir);
    int partitions = 1 + owner.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    // Each partition of a dataset has its own log: a crash leaves each one the state after a
    // prefix of the operations routed to it, M(p) for partition p. A store is one partition.
    long[] maxSeq = new long[partitions];
    Arrays.fill(maxSeq, base.applied());
    int[] actualCount = new int[partitions];
    for (Map.Entry<String, String> e : actual.entrySet()) {
      int p = owner.getOrDefault(e.getKey(), 0);
      actualCount[p]++;
      long s = target.writer().dataset() ? seqOfRecord(e.getValue())
          : CrashWorkload.seqOfStoreValue(e.getValue());
      if (s < 1 || s > last || !w.key(s).equals(e.getKey()) || w.isDelete(s)) {
        faults.add("key " + e.getKey() + " holds a value no write made: "
            + abbreviate(e.getValue()));
      } else {
        maxSeq[p] = Math.max(maxSeq[p], s); // the newest write present bounds M(p) from below
      }
    }
    // The largest M(p) whose state is partition p's content (operations that change nothing,
    // such as a delete of an absent key or any operation of another partition, make several M
    // equal; the largest loses the fewest writes).
    CrashModel model = base.copy();
    int[] liveCount = new int[partitions];
    model.live().keySet().forEach(k -> liveCount[owner.getOrDefault(k, 0)]++);
    long[] matched = new long[partitions];
    Arrays.fill(matched, -1);
    while (true) {
      for (int p = 0; p < partitions; p++) {
        final int part = p;
        if (model.applied() >= maxSeq[p] && liveCount[p] == actualCount[p]
            && model.matches(actual, w, target.writer(),
                k -> owner.getOrDefault(k, 0) == part)) {
          matched[p] = model.applied();
        }
      }
      if (model.applied() >= last) {
        break;
      }
      String key = w.key(model.applied() + 1);
      boolean wasLive = model.live().containsKey(key);
      model.applyNext(w);
      liveCount[owner.getOrDefault(key, 0)] += (model.live().containsKey(key) ? 1 : 0)
          - (wasLive ? 1 : 0);
    }
    long lost = 0;
    long outside = 0;
    CrashModel state = null;
    long min = Long.MAX_VALUE;
    for (int p = 0; p < partitions; p++) {
      if (matched[p] < 0) {
        faults.add("the content" + (partitions > 1 ? " of partition " + p : "") + " is the state"
            + " after no prefix of the writes from " + base.applied() + " to " + last + " ("
            + actualCount[p] + " keys)");
        min = -1;
        continue;
      }
      min = min < 0 ? min : Math.min(min, matched[p]);
    }
    long window = target.groupCommitMillis() + GROUP_GRACE_MILLIS;
    long firstAcked = run.lastAck() - run.ackMillis().size() + 1;
    for (long s = base.applied() + 1; s <= run.lastAck(); s++) {
      int p = owner.getOrDefault(w.key(s), 0);
      if (matched[p] >= 0 && s <= matched[p]) {
        continue;
      }
      lost++;
      if (matched[p] < 0 || target.durability() != Durability.GROUP
          || run.killMillis() - run.ackMillis().get((int) (s - firstAcked)) > window) {
        outside++;
      }
    }
    if (min >= 0) {
      // The next run starts after the lowest M(p): a partition that is ahead gets operations it
      // holds already, again and in order, which leaves it as it is.
      state = base.copy();
      while (state.applied() < min) {
        state.applyNext(w);
      }
    }
    List<String> leftovers = new ArrayList<>();
    if (target.writer().dataset()) {
      DatasetVerifier.FileReport r = DatasetVerifier.verifyFiles(dir);
      faults.addAll(r.faults());
      checkFiles(dir, r.componentsChecked(), leftovers);
    } else {
      StoreVerifier.VerifyReport r = StoreVerifier.verify(dir);
      faults.addAll(r.faults());
      checkFiles(dir, r.componentsChecked(), leftovers);
    }
    return new Outcome(state, lost, outside, faults, leftovers);
  }

  private static Map<String, String> readStore(Path dir) throws IOException {
    Map<String, String> actual = new HashMap<>();
    try (LsmStore store = LsmStore.open(dir, null);
        ScanCursor c = store.scan(null, null)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        actual.put(new String(kv.key(), StandardCharsets.UTF_8),
            new String(kv.value(), StandardCharsets.US_ASCII));
      }
    }
    return actual;
  }

  /**
   * Reads a dataset and checks its indexes; fills {@code owner} with the partition of every key it
   * holds, every key live in {@code base} and every key the operations after {@code base} up to
   * {@code to} write.
   */
  private static Map<String, String> readDataset(Path dir, List<String> faults, CrashWorkload w,
      CrashModel base, long to, Map<String, Integer> owner) {
    Map<String, String> actual = new HashMap<>();
    Map<String, Map<String, String>> records = new HashMap<>();
    try (Dataset ds = Dataset.open(dir, null)) {
      for (long s = base.applied() + 1; s <= to; s++) {
        owner.computeIfAbsent(w.key(s), ds::partitionOf);
      }
      base.live().keySet().forEach(k -> owner.computeIfAbsent(k, ds::partitionOf));
      ds.scan(null, true, Integer.MAX_VALUE, r -> {
        records.put(r.key(), r.fields());
        owner.computeIfAbsent(r.key(), ds::partitionOf);
        actual.put(r.key(), new TreeMap<>(r.fields()).toString());
        return true;
      });
      DatasetVerifier.Report report = ds.verify();
      faults.addAll(report.faults());
      if (ds.config().maintenance().configName().equals("eager")) {
        report.staleEntries().forEach((index, n) -> {
          if (n != 0) {
            faults.add(index + ": " + n + " stale entries under eager maintenance");
          }
        });
      }
      for (String[] q : new String[][] {{"by_field1", "field1", "v", "5"},
          {"by_field2", "field2", "w", "4"}}) {
        for (int v = 0; v < Integer.parseInt(q[3]); v++) {
          String value = q[2] + v;
          List<String> expected = records.entrySet().stream()
              .filter(e -> value.equals(e.getValue().get(q[1]))).map(Map.Entry::getKey)
              .sorted().toList();
          List<String> got = ds.queryEq(q[0], value).stream().map(DatasetRecord::key).sorted()
              .toList();
          if (!got.equals(expected)) {
            faults.add(q[0] + " = " + value + ": the index gives " + got.size()
                + " records, the primary holds " + expected.size());
          }
        }
      }
    }
    return actual;
  }

  private static long seqOfRecord(String canonical) {
    int i = canonical.indexOf("seq=");
    if (i < 0) {
      return -1;
    }
    int end = i + 4;
    while (end < canonical.length() && Character.isDigit(canonical.charAt(end))) {
      end++;
    }
    try {
      return Long.parseLong(canonical.substring(i + 4, end));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Notes every {@code *.tmp} file, any count of component files other than the listed, and any
   * CL-SSTable log segment without its index (or the reverse).
   */
  private static void checkFiles(Path dir, int listedComponents, List<String> leftovers)
      throws IOException {
    long components;
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> all = s.filter(Files::isRegularFile).toList();
      for (Path p : all) {
        if (p.getFileName().toString().endsWith(".tmp")) {
          leftovers.add(dir.relativize(p).toString());
        }
      }
      // B+-tree components (.cmp) and TRIAD-LOG's CL-SSTable indexes (.cli), each of which has
      // its log segment (.clog) beside the write-ahead log (docs/format.md).
      components = count(all, ".cmp") + count(all, ".cli");
      long indexes = count(all, ".cli");
      long segments = count(all, ".clog");
      if (segments != indexes) {
        leftovers.add(segments + " CL-SSTable log segments but " + indexes + " CL-SSTables");
      }
    }
    if (components != listedComponents) {
      leftovers.add(components + " component files but " + listedComponents + " listed");
    }
  }

  private static long count(List<Path> files, String suffix) {
    return files.stream().filter(p -> p.getFileName().toString().endsWith(suffix)).count();
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }

}
