package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;

/**
 * A dataset whose indexes hold the leftovers of a crash (a component file written but not yet in
 * the manifest, a component still under its temporary name, a manifest being written): the
 * leftovers are deleted only by an open that succeeds, after every partition's log replayed, and
 * no flush or merge runs before. Merges are handed to the {@code test-recording} scheduler, which
 * notes each one in a file when the engine schedules it and runs none, so whether a merge started
 * is seen without timing.
 */
class DatasetCrashLeftoversTest {
  private static final int PARTITIONS = 2;
  private static final int BATCH = 100;
  private static final Pattern NEXT_FILE = Pattern.compile("\"nextFileNumber\"\\s*:\\s*(\\d+)");

  @TempDir Path tmp;

  private static String key(int i) {
    return String.format("key%04d", i);
  }

  private static Map<String, String> fields(int i) {
    return Map.of("f1", "v" + (i % 5));
  }

  /** Two disk components and a logged, unflushed batch in every index of every partition. */
  private static DatasetConfig crashConfig() {
    StoreConfig s = TestStores.smallConfig(100);
    return new DatasetConfig(s.withLog(s.log().withDurability(Durability.SYNC)),
        List.of(new SecondaryIndexSpec("by_f1", "f1")), SecondaryMaintenance.EAGER, PARTITIONS);
  }

  /**
   * The reopening configuration: a policy that merges as soon as an index has more than one run
   * (each has two), and a scheduler that records the merges it is given into {@code merges}.
   */
  private static DatasetConfig reopenConfig(Path merges) {
    StoreConfig s = crashConfig().store()
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max", "1")))
        .withMergeScheduler(new NamedPlugin("test-recording",
            Map.of("record-to", merges.toString())));
    return new DatasetConfig(s, crashConfig().secondaryIndexes(), SecondaryMaintenance.EAGER,
        PARTITIONS);
  }

  /** A copy of the dataset's files taken while it is open: what a crash then leaves. */
  private Path crashImage() throws Exception {
    Path dir = tmp.resolve("ds");
    Path image = tmp.resolve("image");
    try (Dataset ds = Dataset.open(dir, crashConfig())) {
      for (int b = 0; b < 3; b++) {
        for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
          ds.upsert(key(i), fields(i));
        }
        if (b < 2) {
          ds.flush();
        }
      }
      ds.sync();
      LogImages.copyTree(dir, image);
    }
    return image;
  }

  private static List<Path> memberDirs(Path image) {
    List<Path> out = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (String index : List.of("primary", "by_f1")) {
        out.add(image.resolve("p" + p).resolve(index));
      }
    }
    return out;
  }

  private static long nextFileNumber(Path member) throws Exception {
    Matcher m = NEXT_FILE.matcher(Files.readString(member.resolve("MANIFEST"),
        StandardCharsets.ISO_8859_1));
    assertThat(m.find()).as("nextFileNumber in the manifest of %s", member).isTrue();
    return Long.parseLong(m.group(1));
  }

  private static Set<String> componentFiles(Path member) throws Exception {
    try (Stream<Path> s = Files.list(member)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cmp"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /**
   * Writes into every index directory what a crash during a flush and a manifest update leaves:
   * the next component file (a whole copy of a listed one) not yet listed, the one after it still
   * under its temporary name, and a half-written {@code MANIFEST.tmp}.
   *
   * @return the leftovers' file names, by index directory
   */
  private static Map<Path, Set<String>> leaveCrashLeftovers(Path image) throws Exception {
    Map<Path, Set<String>> out = new HashMap<>();
    for (Path member : memberDirs(image)) {
      long next = nextFileNumber(member);
      Set<String> listed = componentFiles(member);
      assertThat(listed).as("components of %s", member).hasSize(2);
      String unlisted = String.format("%012d.cmp", next);
      String temporary = String.format("%012d.cmp.tmp", next + 1);
      byte[] whole = Files.readAllBytes(member.resolve(listed.iterator().next()));
      Files.write(member.resolve(unlisted), whole);
      Files.write(member.resolve(temporary), Arrays.copyOf(whole, whole.length / 2));
      Files.writeString(member.resolve("MANIFEST.tmp"), "a manifest being wri");
      out.put(member, Set.of(unlisted, temporary, "MANIFEST.tmp"));
    }
    return out;
  }

  /**
   * Flips a byte inside the first unflushed write of partition {@code p} with more after it.
   *
   * @return the segment and the offset of the flipped byte, to flip it back
   */
  private static Flip corruptLog(Path image, int p) throws Exception {
    Path seg = LogImages.newestSegment(image.resolve("p" + p).resolve("wal"));
    String content = new String(Files.readAllBytes(seg), StandardCharsets.ISO_8859_1);
    List<Integer> inLog = new ArrayList<>();
    for (int i = 2 * BATCH; i < 3 * BATCH; i++) {
      if (content.contains(key(i))) {
        inLog.add(i);
      }
    }
    assertThat(inLog).as("unflushed writes in the log of p%d", p).hasSizeGreaterThan(5);
    String k = key(inLog.get(0));
    int at = LogImages.flipInside(seg, k) + k.length() - 1;
    return new Flip(seg, at);
  }

  /** A flipped byte of a log segment. */
  private record Flip(Path segment, int offset) {
    void undo() throws Exception {
      byte[] data = Files.readAllBytes(segment);
      data[offset] ^= 0x01;
      Files.write(segment, data);
    }
  }

  @ParameterizedTest(name = "corrupt log in partition {0}")
  @ValueSource(ints = {0, 1})
  void anOpenRefusedForACorruptLogDeletesNoLeftoverAndStartsNoMerge(int corrupt)
      throws Exception {
    Path image = crashImage();
    leaveCrashLeftovers(image);
    Flip flip = corruptLog(image, corrupt);
    Path merges = tmp.resolve("merges.txt");
    Map<String, String> before = LogImages.snapshot(image);

    assertThatThrownBy(() -> Dataset.open(image, reopenConfig(merges)))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining("p" + corrupt)
        .hasMessageContaining("intact records");
    // Every file of every index and log byte for byte as it was, nothing added or removed.
    assertThat(LogImages.snapshot(image)).isEqualTo(before);
    assertThat(merges).as("no index scheduled a merge").doesNotExist();
    // With the saved configuration (the default recovery mode) too.
    assertThatThrownBy(() -> Dataset.open(image, null))
        .isInstanceOf(CorruptionException.class);
    assertThat(LogImages.snapshot(image)).isEqualTo(before);

    // The refused opens released their locks and files: with the byte restored, it opens.
    flip.undo();
    try (Dataset ds = Dataset.open(image, reopenConfig(merges))) {
      assertThat(ds.get(key(3 * BATCH - 1))).isPresent();
    }
  }

  /**
   * A crash while an open rewrote {@code dataset.json} (or wrote {@code LAYOUT}) leaves its
   * temporary file; the next open, even without a configuration, deletes it.
   */
  @Test
  void anOpenDeletesTheTemporaryFilesOfTheDatasetsOwnFiles() throws Exception {
    Path image = crashImage();
    Path config = image.resolve("dataset.json.tmp");
    Path layout = image.resolve("LAYOUT.tmp");
    Files.writeString(config, "{\"partitions\": ");
    Files.writeString(layout, "torn");
    try (Dataset ds = Dataset.open(image, null)) {
      assertThat(config).doesNotExist();
      assertThat(layout).doesNotExist();
      assertThat(ds.get(key(0))).isPresent();
    }
  }

  @Test
  void anOpenThatSucceedsDeletesTheLeftoversAndNoNewFileTakesTheirNames() throws Exception {
    Path image = crashImage();
    Map<Path, Set<String>> leftovers = leaveCrashLeftovers(image);
    Map<Path, Set<String>> listed = new HashMap<>();
    for (Path member : memberDirs(image)) {
      listed.put(member, componentFiles(member));
      listed.get(member).removeAll(leftovers.get(member));
    }
    Path merges = tmp.resolve("merges.txt");
    try (Dataset ds = Dataset.open(image, reopenConfig(merges))) {
      for (Path member : memberDirs(image)) {
        for (String n : leftovers.get(member)) {
          assertThat(member.resolve(n)).as("leftover deleted").doesNotExist();
        }
        assertThat(componentFiles(member)).isEqualTo(listed.get(member));
      }
      for (int i = 0; i < 3 * BATCH; i++) {
        assertThat(ds.get(key(i)).map(DatasetRecord::fields)).hasValue(fields(i));
      }
      assertThat(ds.queryEq("by_f1", "v0")).hasSize(3 * BATCH / 5);
      assertThat(ds.verify().faults()).isEmpty();
      // The policy merges every index once it has started (the merges are only recorded).
      assertThat(Files.readAllLines(merges)).hasSize(memberDirs(image).size());

      ds.flush();
      for (Path member : memberDirs(image)) {
        Set<String> fresh = componentFiles(member);
        fresh.removeAll(listed.get(member));
        assertThat(fresh).as("the flushed component of %s", member).hasSize(1);
        String name = fresh.iterator().next();
        long number = Long.parseLong(name.substring(0, 12));
        assertThat(leftovers.get(member)).doesNotContain(name, name + ".tmp");
        long highestLeftover = leftovers.get(member).stream().filter(n -> n.contains(".cmp"))
            .mapToLong(n -> Long.parseLong(n.substring(0, 12))).max().orElseThrow();
        assertThat(number).as("new file number above every leftover's in %s", member)
            .isGreaterThan(highestLeftover);
      }
    }
    try (Dataset ds = Dataset.open(image, null)) {
      assertThat(ds.get(key(0))).isPresent();
      assertThat(ds.get(key(3 * BATCH - 1))).isPresent();
    }
  }
}
