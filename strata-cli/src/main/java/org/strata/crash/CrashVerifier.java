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
    Map<String, String> actual = target.writer().dataset() ? readDataset(dir, faults)
        : readStore(dir);
    // The newest write whose value is present bounds M from below.
    long maxSeq = base.applied();
    for (Map.Entry<String, String> e : actual.entrySet()) {
      long s = target.writer().dataset() ? seqOfRecord(e.getValue())
          : CrashWorkload.seqOfStoreValue(e.getValue());
      if (s < 1 || s > run.lastAck() + 1 || !w.key(s).equals(e.getKey()) || w.isDelete(s)) {
        faults.add("key " + e.getKey() + " holds a value no write made: "
            + abbreviate(e.getValue()));
      } else {
        maxSeq = Math.max(maxSeq, s);
      }
    }
    // The largest M whose state is the content (operations that change nothing, such as a delete
    // of an absent key, make several M equal; the largest loses the fewest writes).
    // The child writes operation n + 1 only after acknowledging n, so lastAck + 1 is the last it
    // can have written (the one in flight).
    long last = run.lastAck() + 1;
    CrashModel model = base.copy();
    CrashModel matched = null;
    while (true) {
      if (model.applied() >= maxSeq && model.matches(actual, w, target.writer())) {
        matched = model.copy();
      }
      if (model.applied() >= last) {
        break;
      }
      model.applyNext(w);
    }
    long lost;
    long outside = 0;
    if (matched == null) {
      faults.add("the content is the state after no prefix of the writes from "
          + base.applied() + " to " + (run.lastAck() + 1) + " (" + actual.size() + " keys)");
      lost = Math.max(0, run.lastAck() - base.applied());
      outside = lost;
    } else {
      lost = Math.max(0, run.lastAck() - matched.applied());
      if (lost > 0) {
        if (target.durability() != Durability.GROUP) {
          outside = lost;
        } else {
          long window = target.groupCommitMillis() + GROUP_GRACE_MILLIS;
          long start = run.lastAck() - run.ackMillis().size() + 1;
          for (long s = matched.applied() + 1; s <= run.lastAck(); s++) {
            long ackedAt = run.ackMillis().get((int) (s - start));
            if (run.killMillis() - ackedAt > window) {
              outside++;
            }
          }
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
    return new Outcome(matched, lost, outside, faults, leftovers);
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

  private static Map<String, String> readDataset(Path dir, List<String> faults) {
    Map<String, String> actual = new HashMap<>();
    Map<String, Map<String, String>> records = new HashMap<>();
    try (Dataset ds = Dataset.open(dir, null)) {
      ds.scan(null, true, Integer.MAX_VALUE, r -> {
        records.put(r.key(), r.fields());
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
