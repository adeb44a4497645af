package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.testing.FlipTally;
import org.strata.lsm.testing.FlipTally.Outcome;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;

/**
 * Corruption campaign over the files only a dataset has: {@code dataset.json} (its layout:
 * partitions, secondary indexes, maintenance; and its store settings), the {@link DatasetLayout}
 * file and the disk components of a secondary index. A pristine two-partition dataset with a
 * secondary index, three flushes and unflushed records in the partition logs gets one byte XORed
 * with a random non-zero mask per trial, on a fresh copy; then the files are verified ({@link
 * DatasetVerifier#verifyFiles}), the dataset is opened, every key is read, everything is scanned,
 * every secondary value is queried, and the indexes' agreement is checked. A trial is detected,
 * harmless, unclear (an error that does not name what was damaged) or served wrong (see {@link
 * FlipTally}); the test fails on any served-wrong or unclear trial. Prints its seed; rerun with
 * {@code -Dcorruption.seed=N}, change the number of trials with {@code
 * -Dcorruption.dataset.trials=N}.
 */
class DatasetCorruptionCampaignTest {
  static final int KEYS = 200;
  static final int CITIES = 8;
  static final String INDEX = "by_city";

  @TempDir Path tmp;

  private final TreeMap<String, Map<String, String>> model = new TreeMap<>();

  /** The regions flipped. */
  enum Region { DATASET_CONFIG, DATASET_LAYOUT, SECONDARY_COMPONENT }

  static DatasetConfig config() {
    return new DatasetConfig(TestStores.smallConfig(100)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max", "100")))
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withIo(IoConfig.of(0, 1 << 20, 512)),
        List.of(new SecondaryIndexSpec(INDEX, "city")), SecondaryMaintenance.EAGER, 2);
  }

  static String key(int i) {
    return String.format("r%04d", i);
  }

  @Test
  void noSingleByteFlipInADatasetFileServesWrongData() throws Exception {
    long seed = Long.getLong("corruption.seed", 20_2026L);
    int trials = Integer.getInteger("corruption.dataset.trials", 150);
    System.out.println("DatasetCorruptionCampaignTest seed " + seed + " (rerun:"
        + " -Dcorruption.seed=" + seed + ")");
    Random rnd = new Random(seed);
    Path pristine = buildPristine(rnd);
    Path configFile = pristine.resolve(Dataset.CONFIG_FILE);
    List<Path> secondary;
    try (Stream<Path> s = Files.walk(pristine)) {
      secondary = s.filter(p -> p.getParent().getFileName().toString().equals(INDEX)
          && p.toString().endsWith(".cmp")).sorted().toList();
    }
    assertThat(secondary).as("secondary components").isNotEmpty();
    FlipTally tally = new FlipTally();
    Region[] regions = Region.values();
    for (int t = 0; t < trials; t++) {
      Region region = regions[t % regions.length];
      Path file = switch (region) {
        case DATASET_CONFIG -> configFile;
        case DATASET_LAYOUT -> pristine.resolve(DatasetLayout.FILE);
        case SECONDARY_COMPONENT -> secondary.get(rnd.nextInt(secondary.size()));
      };
      String rel = pristine.relativize(file).toString();
      long offset = (long) (rnd.nextDouble() * Files.size(file));
      int mask = 1 + rnd.nextInt(255);
      Path dir = tmp.resolve("trial");
      FlipTally.deleteTree(dir);
      LogImages.copyTree(pristine, dir);
      FlipTally.flip(dir.resolve(rel), offset, mask);
      String what = String.format("%s offset %d mask 0x%02x", rel, offset, mask);
      tally.add(region.name(), trial(dir, file.getFileName().toString(), what), what);
    }
    System.out.println("DatasetCorruptionCampaignTest, seed " + seed + "\n" + tally.table());
    tally.badTrials().forEach(System.out::println);
    assertThat(tally.trials()).isEqualTo(trials);
    assertThat(tally.count(Outcome.DETECTED)).as("the detector finds something").isPositive();
    assertThat(tally.badTrials()).as("served-wrong or unclear trials, seed %d", seed).isEmpty();
  }

  /** Two partitions, one secondary index; three flushes, then writes in the logs only. */
  Path buildPristine(Random rnd) throws Exception {
    Path dir = tmp.resolve("build");
    Path pristine = tmp.resolve("pristine");
    try (Dataset ds = Dataset.open(dir, config())) {
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < KEYS; i++) {
          int r = rnd.nextInt(10);
          if (round == 0 ? r < 7 : r < 2) {
            Map<String, String> f = Map.of("city", "c" + rnd.nextInt(CITIES), "n",
                round + "-" + i);
            ds.upsert(key(i), f);
            model.put(key(i), f);
          } else if (round > 0 && r == 2) {
            ds.delete(key(i));
            model.remove(key(i));
          }
        }
        if (round < 3) {
          ds.flush();
        }
      }
      ds.sync();
      LogImages.copyTree(dir, pristine);
    }
    Files.deleteIfExists(pristine.resolve("LOCK"));
    assertThat(DatasetVerifier.verifyFiles(pristine).ok()).as("the pristine image verifies")
        .isTrue();
    Path check = LogImages.copyTree(pristine, tmp.resolve("check"));
    Observed o = readAll(check, "-");
    assertThat(o.error).as("the pristine image reads").isNull();
    assertThat(wrong(o)).as("the pristine image reads as the model").isEmpty();
    return pristine;
  }

  /** What reading a damaged copy gave. */
  private static final class Observed {
    final Map<String, Optional<Map<String, String>>> got = new TreeMap<>();
    final List<String> scanned = new ArrayList<>();
    boolean scanComplete;
    final Map<String, TreeSet<String>> queried = new TreeMap<>();
    String error;
    boolean errorNamesFile;
    boolean openFailed;
    boolean disagree;
  }

  private Outcome trial(Path dir, String fileName, String what) {
    boolean verifyReports;
    try {
      DatasetVerifier.FileReport v = DatasetVerifier.verifyFiles(dir);
      verifyReports = v.faults().stream().anyMatch(f -> f.contains(fileName));
    } catch (RuntimeException e) {
      verifyReports = String.valueOf(e.getMessage()).contains(fileName);
    }
    Observed o = readAll(dir, fileName);
    if (o.openFailed) {
      if (!o.errorNamesFile) {
        System.out.println("unclear: " + what + ": " + o.error);
      }
      return o.errorNamesFile ? Outcome.DETECTED : Outcome.UNCLEAR;
    }
    List<String> wrong = wrong(o);
    if (!wrong.isEmpty()) {
      System.out.println("served wrong: " + what + ": " + (wrong.size() > 5
          ? wrong.subList(0, 5) + " and " + (wrong.size() - 5) + " more" : wrong));
      return Outcome.SERVED_WRONG;
    }
    if (o.error != null) {
      if (!o.errorNamesFile) {
        System.out.println("unclear: " + what + ": " + o.error);
      }
      return o.errorNamesFile ? Outcome.DETECTED : Outcome.UNCLEAR;
    }
    return verifyReports || o.disagree ? Outcome.DETECTED : Outcome.HARMLESS;
  }

  /** The reads that differ from the model. */
  private List<String> wrong(Observed o) {
    List<String> w = new ArrayList<>();
    o.got.forEach((k, v) -> {
      Map<String, String> want = model.get(k);
      if (!v.equals(Optional.ofNullable(want))) {
        w.add("get " + k + " gave " + v.orElse(null) + ", the model has " + want);
      }
    });
    List<String> all = new ArrayList<>();
    model.forEach((k, v) -> all.add(k + "=" + new TreeMap<>(v)));
    List<String> prefix = all.subList(0, Math.min(all.size(), o.scanned.size()));
    if (o.scanComplete ? !all.equals(o.scanned) : !prefix.equals(o.scanned)) {
      w.add("the scan gave " + o.scanned.size() + " records, the model has " + all.size());
    }
    o.queried.forEach((city, keys) -> {
      TreeSet<String> want = new TreeSet<>();
      model.forEach((k, v) -> {
        if (v.get("city").equals(city)) {
          want.add(k);
        }
      });
      if (!want.equals(keys)) {
        w.add(INDEX + " = " + city + " gave " + keys + ", the model has " + want);
      }
    });
    return w;
  }

  private static Observed readAll(Path dir, String fileName) {
    Observed o = new Observed();
    Dataset ds;
    try {
      ds = Dataset.open(dir, null);
    } catch (RuntimeException e) {
      o.openFailed = true;
      o.error = e.toString();
      o.errorNamesFile = String.valueOf(e.getMessage()).contains(fileName);
      return o;
    }
    try (ds) {
      for (int i = 0; i < KEYS + 5; i++) {
        try {
          o.got.put(key(i), ds.get(key(i)).map(r -> Map.copyOf(r.fields())));
        } catch (RuntimeException e) {
          note(o, e, fileName);
        }
      }
      try {
        for (DatasetRecord r : ds.scan(null, Integer.MAX_VALUE)) {
          o.scanned.add(r.key() + "=" + new TreeMap<>(r.fields()));
        }
        o.scanComplete = true;
      } catch (RuntimeException e) {
        note(o, e, fileName);
      }
      for (int c = 0; c < CITIES; c++) {
        try {
          TreeSet<String> keys = new TreeSet<>();
          ds.queryEq(INDEX, "c" + c).forEach(r -> keys.add(r.key()));
          o.queried.put("c" + c, keys);
        } catch (RuntimeException e) {
          note(o, e, fileName);
        }
      }
      try {
        o.disagree = !ds.verify().faults().isEmpty();
      } catch (RuntimeException e) {
        note(o, e, fileName);
      }
    } catch (RuntimeException e) {
      note(o, e, fileName); // from close
    }
    return o;
  }

  private static void note(Observed o, RuntimeException e, String fileName) {
    boolean named = e instanceof CorruptionException
        && String.valueOf(e.getMessage()).contains(fileName)
        && String.valueOf(e.getMessage()).contains("offset");
    if (o.error == null) {
      o.error = e.toString();
      o.errorNamesFile = named;
    } else {
      o.errorNamesFile &= named;
    }
  }
}
