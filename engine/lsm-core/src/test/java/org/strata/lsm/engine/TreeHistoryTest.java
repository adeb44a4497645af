package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StallCause;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.metrics.HistoryFile;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * An index's {@code HISTORY}: it replays exactly the flushes and merges the store ran (each
 * merge's inputs in the runs before it and gone after, its outputs after), its last state is the
 * store's, stalls are written with their cause, it rolls over, a damaged line is refused, a cut
 * last line is left out, and a history that cannot be written stops without harming the store.
 */
class TreeHistoryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  private static List<JsonNode> events(Path dir) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : HistoryFile.read(dir, new int[1])) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  private static Set<String> names(JsonNode event) {
    Set<String> s = new HashSet<>();
    for (JsonNode run : event.get("runs")) {
      for (JsonNode f : run.get("files")) {
        s.add(f.get(0).asText());
      }
    }
    return s;
  }

  private static void put(LsmStore s, int from, int to) {
    byte[] v = new byte[100];
    for (int i = from; i < to; i++) {
      s.put(String.format("k%07d", i).getBytes(StandardCharsets.US_ASCII), v);
    }
  }

  @Test
  void theHistoryReplaysEveryFlushAndMergeTheStoreRan() throws IOException {
    Path dir = tmp.resolve("db");
    StoreStats st;
    Set<String> last = new HashSet<>();
    try (LsmStore s = LsmStore.open(dir, LsmTreeModelTest.config(3, 1 << 20),
        StoreEnvironment.standard())) {
      for (int round = 0; round < 8; round++) {
        put(s, round * 300, round * 300 + 300);
        s.flush();
      }
      s.compact();
      st = s.stats();
      s.runs().forEach(r -> r.components().forEach(c -> last.add(c.name())));
    }
    List<JsonNode> events = events(dir);
    assertThat(events.get(0).get("event").asText()).isEqualTo("open");
    assertThat(events.get(0).get("runs")).isEmpty();
    JsonNode close = events.get(events.size() - 1);
    assertThat(close.get("event").asText()).isEqualTo("close");
    assertThat(names(close)).isEqualTo(last);
    assertThat(events.stream().filter(e -> e.get("event").asText().equals("flush")).count())
        .isEqualTo(st.flushes());
    assertThat(events.stream().filter(e -> e.get("event").asText().equals("merge")).count())
        .isEqualTo(st.merges()).isPositive();
    Set<String> before = Set.of();
    for (JsonNode e : events) {
      if (e.get("event").asText().equals("stall")) {
        continue;
      }
      Set<String> after = names(e);
      for (JsonNode in : e.path("in")) {
        assertThat(before).as("input of %s", e).contains(in.asText());
        assertThat(after).as("input of %s", e).doesNotContain(in.asText());
      }
      for (JsonNode out : e.path("out")) {
        assertThat(before).doesNotContain(out.asText());
        assertThat(after).contains(out.asText());
      }
      if (e.get("event").asText().equals("flush")) {
        JsonNode newest = e.get("runs").get(0);
        assertThat(newest.get("level").asInt()).isZero();
        assertThat(newest.get("files").get(0).get(0).asText())
            .isEqualTo(e.get("out").get(0).asText());
      }
      before = after;
    }
  }

  private static RunList oneRun(String name, long bytes) {
    return RunList.of(List.of(new RunInfo(1, 0, List.of(
        new ComponentInfo(name, 1, 1, bytes, 10, 1, null, null)), false)));
  }

  @Test
  void aStallIsWrittenWithTheNextLineAndTheFileRollsOver() throws IOException {
    TreeHistory h = new TreeHistory(tmp, FileIo.standard(), Clock.system(),
        LogManager.getLogger(TreeHistoryTest.class), 600);
    h.stalled(StallCause.MEMORY_FULL, 2_500_000);
    assertThat(tmp.resolve(HistoryFile.NAME)).doesNotExist();
    h.opened(RunList.of(List.of()));
    List<JsonNode> e = events(tmp);
    assertThat(e).hasSize(2);
    assertThat(e.get(0).get("event").asText()).isEqualTo("stall");
    assertThat(e.get(0).get("cause").asText()).isEqualTo(StallCause.MEMORY_FULL.jsonName());
    assertThat(e.get(0).get("ms").asDouble()).isEqualTo(2.5);
    for (int i = 0; i < 20; i++) {
      h.flushed(i, List.of(), oneRun(String.format("%012d.cmp", i), i));
    }
    h.closed(RunList.of(List.of()));
    assertThat(tmp.resolve(HistoryFile.PREVIOUS)).exists();
    assertThat(Files.size(tmp.resolve(HistoryFile.NAME))).isLessThanOrEqualTo(600);
    List<JsonNode> kept = events(tmp);
    assertThat(kept.get(kept.size() - 1).get("event").asText()).isEqualTo("close");
    List<Long> flushed = kept.stream().filter(n -> n.has("memory"))
        .map(n -> n.get("memory").asLong()).toList();
    assertThat(flushed).as("the newest events, in order across the two files").isNotEmpty()
        .isSorted().endsWith(19L);
    assertThat(flushed.get(flushed.size() - 1) - flushed.get(0)).isEqualTo(flushed.size() - 1);
  }

  @Test
  void aDamagedLineIsRefusedNamingItAndACutLastLineIsLeftOut() throws IOException {
    TreeHistory h = new TreeHistory(tmp, FileIo.standard(), Clock.system(),
        LogManager.getLogger(TreeHistoryTest.class));
    h.opened(RunList.of(List.of()));
    h.flushed(1, List.of(), oneRun("000000000001.cmp", 100));
    h.closed(oneRun("000000000001.cmp", 100));
    Path file = tmp.resolve(HistoryFile.NAME);
    Files.writeString(file, "0123abcd {\"t\":1,", StandardOpenOption.APPEND);
    int[] torn = new int[1];
    assertThat(HistoryFile.read(tmp, torn)).hasSize(3);
    assertThat(torn[0]).isEqualTo(1);
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.set(1, lines.get(1).replace("\"memory\":1", "\"memory\":7"));
    Files.write(file, lines);
    assertThatThrownBy(() -> HistoryFile.read(tmp, new int[1]))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(HistoryFile.NAME).hasMessageContaining("line 2");
  }

  @Test
  void aHistoryThatCannotBeWrittenStopsWithoutHarmingTheStore() throws IOException {
    FileIo standard = FileIo.standard();
    FileIo noHistory = new FileIo() {
      @Override
      public WritableFile create(Path path) throws IOException {
        if (path.getFileName().toString().equals(HistoryFile.NAME)) {
          throw new IOException("No space left on device");
        }
        return standard.create(path);
      }

      @Override
      public WritableFile append(Path path) throws IOException {
        return standard.append(path);
      }
    };
    Path dir = tmp.resolve("db");
    try (LsmStore s = LsmStore.open(dir, LsmTreeModelTest.config(3, 1 << 20),
        new StoreEnvironment(Clock.system(), noHistory))) {
      put(s, 0, 600);
      s.flush();
      assertThat(s.stats().flushes()).isPositive();
      assertThat(s.stats().backgroundError()).isNull();
    }
    assertThat(dir.resolve(HistoryFile.NAME)).doesNotExist();
    try (LsmStore s = LsmStore.open(dir, null, StoreEnvironment.standard())) {
      assertThat(s.get("k0000599".getBytes(StandardCharsets.US_ASCII))).isNotNull();
    }
    assertThat(events(dir).get(0).get("event").asText()).isEqualTo("open");
  }
}
