package org.strata.crash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.strata.lsm.Durability;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import org.strata.lsm.dataset.DatasetVerifier;
import org.strata.lsm.engine.StoreVerifier;

/**
 * Checks a store or dataset after its writer was killed. The writer wrote operations {@code
 * first = base.resumeAfter() + 1}, {@code first + 1}, ... one at a time and the parent received
 * acknowledgements up to {@code lastAck} (all it wrote: the parent reads the channel to its end
 * after the kill); at most one operation, {@code lastAck + 1}, was in flight. Each partition (a
 * store is one) must hold exactly its {@link CrashState} before the run with this run's operations
 * up to some {@code j} applied on top (the largest {@code j} that fits is taken), every value
 * exactly the one its operation wrote (a value no operation wrote, or a mix that no {@code j}
 * gives, is a fault). Then, for the acknowledged operations after {@code j} that the partition
 * owns:
 *
 * <ul>
 *   <li>{@code sync}: there are none (every acknowledged write present; the in-flight one may or
 *       may not be);
 *   <li>{@code group}: they are lost, allowed only within the
 *       documented window: each was acknowledged less than the group-commit interval plus {@link
 *       #GROUP_GRACE_MILLIS} before the kill (a SIGKILL loses what the group committer had not
 *       yet handed to the operating system);
 *   <li>{@code none}: they are lost, allowed (the log is written out only at a seal, when its
 *       buffer holds 1 MB and at close), but the content is still the state after a prefix;
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
   * @param content what the recovered store read: key to value (a dataset: to its fields)
   */
  record Outcome(CrashState state, long lost, long lostOutsideWindow, List<String> faults,
      List<String> leftovers, Map<String, String> content) {
    Outcome(CrashState state, long lost, long lostOutsideWindow, List<String> faults,
        List<String> leftovers) {
      this(state, lost, lostOutsideWindow, faults, leftovers, Map.of());
    }

    boolean ok() {
      return state != null && lostOutsideWindow == 0 && faults.isEmpty() && leftovers.isEmpty();
    }
  }

  private CrashVerifier() {}

  static Outcome check(CrashTarget target, Path dir, CrashWorkload w, CrashState base,
      ChildRun.Result run) throws IOException {
    List<String> faults = new ArrayList<>();
    // This run wrote operations first, first + 1, ...; the child writes operation n + 1 only after
    // acknowledging n, so lastAck + 1 is the last it can have written (the one in flight).
    long first = base.resumeAfter() + 1;
    long last = run.lastAck() + 1;
    Map<String, Integer> owner = new HashMap<>();
    Map<String, String> actual = target.writer().dataset()
        ? readDataset(dir, faults, w, base, first, last, owner) : readStore(dir);
    int partitions = Math.max(base.partitionCount(),
        1 + owner.values().stream().mapToInt(Integer::intValue).max().orElse(0));
    long window = target.groupCommitMillis() + GROUP_GRACE_MILLIS;
    long firstAcked = run.lastAck() - run.ackMillis().size() + 1;
    List<CrashModel> state = new ArrayList<>();
    long lost = 0;
    long outside = 0;
    for (int p = 0; p < partitions; p++) {
      final int part = p;
      CrashModel model = base.partition(p);
      // Partition p's content, and the newest operation whose value it holds that it did not
      // hold before this run: the operations up to that one, at least, reached it.
      Map<String, String> content = new HashMap<>();
      long held = model.applied();
      long newest = first - 1;
      for (Map.Entry<String, String> e : actual.entrySet()) {
        if (owner.getOrDefault(e.getKey(), 0) != p) {
          continue;
        }
        content.put(e.getKey(), e.getValue());
        long s = target.writer().dataset() ? seqOfRecord(e.getValue())
            : CrashWorkload.seqOfStoreValue(e.getValue());
        if (s < 1 || s > Math.max(last, model.applied()) || !w.key(s).equals(e.getKey())
            || w.isDelete(s)) {
          faults.add("key " + e.getKey() + " holds a value no write made: "
              + abbreviate(e.getValue()));
        } else if (s > held) {
          newest = Math.max(newest, s);
        }
      }
      // The largest j such that the partition holds its state before this run with this run's
      // operations up to j applied on top (operations that change nothing here, such as those of
      // other partitions or a delete of an absent key, make several j equal; the largest loses the
      // fewest writes).
      long live = model.live().keySet().stream().filter(k -> owner.getOrDefault(k, 0) == part)
          .count();
      CrashModel matched = null;
      long matchedAt = -1;
      for (long j = first - 1; ; j++) {
        if (j >= first) {
          String key = w.key(j);
          boolean mine = owner.getOrDefault(key, 0) == p;
          boolean wasLive = model.live().containsKey(key);
          model.apply(j, w);
          if (mine) {
            live += (model.live().containsKey(key) ? 1 : 0) - (wasLive ? 1 : 0);
          }
        }
        if (j >= newest && live == content.size() && model.matches(content, w, target.writer(),
            k -> owner.getOrDefault(k, 0) == part)) {
          matched = model.copy();
          matchedAt = j;
        }
        if (j >= last) {
          break;
        }
      }
      if (matched == null) {
        faults.add("the content" + (partitions > 1 ? " of partition " + p : "") + " is the state"
            + " after none of the writes " + first + " to " + last + " (" + content.size()
            + " keys)");
      } else {
        state.add(matched);
      }
      // Acknowledged operations of this run that partition p owns and does not hold.
      for (long s = Math.max(first, matchedAt + 1); s <= run.lastAck(); s++) {
        if (owner.getOrDefault(w.key(s), 0) != p) {
          continue;
        }
        lost++;
        if (matched == null || target.durability() == Durability.SYNC
            || target.durability() == Durability.GROUP
            && run.killMillis() - run.ackMillis().get((int) (s - firstAcked)) > window) {
          outside++;
        }
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
    return new Outcome(state.size() == partitions ? CrashState.of(state) : null, lost, outside,
        faults, leftovers, Map.copyOf(actual));
  }

  /**
   * What the store or dataset in {@code dir} reads after an open with its saved configuration:
   * key to value (a dataset: to its fields, in name order), as {@link #check} reads it.
   */
  static Map<String, String> content(CrashTarget target, Path dir) throws IOException {
    if (!target.writer().dataset()) {
      return readStore(dir);
    }
    Map<String, String> actual = new HashMap<>();
    try (Dataset ds = Dataset.open(dir, null)) {
      ds.scan(null, true, Integer.MAX_VALUE, r -> {
        actual.put(r.key(), new TreeMap<>(r.fields()).toString());
        return true;
      });
    }
    return actual;
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
   * holds, every key live in {@code base} and every key operations {@code from} to {@code to}
   * write.
   */
  private static Map<String, String> readDataset(Path dir, List<String> faults, CrashWorkload w,
      CrashState base, long from, long to, Map<String, Integer> owner) {
    Map<String, String> actual = new HashMap<>();
    Map<String, Map<String, String>> records = new HashMap<>();
    try (Dataset ds = Dataset.open(dir, null)) {
      for (long s = from; s <= to; s++) {
        owner.computeIfAbsent(w.key(s), ds::partitionOf);
      }
      for (int p = 0; p < base.partitionCount(); p++) {
        base.partition(p).live().keySet().forEach(k -> owner.computeIfAbsent(k, ds::partitionOf));
      }
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
