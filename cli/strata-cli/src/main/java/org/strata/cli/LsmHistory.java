package org.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.strata.lsm.metrics.HistoryFile;

/**
 * The histories under a directory, for {@code strata lsm}: every index directory below it that
 * keeps a {@code HISTORY} file (a store's own directory, each index of a dataset's partitions,
 * each phase a two-phase run kept under {@code history/}), each with its events in time order.
 *
 * @param trees one entry per index, named by its path relative to the directory ("." for a store)
 * @param tornLines lines a crash cut at the end of a history, left out
 */
record LsmHistory(List<Tree> trees, int tornLines) {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** How deep below the directory histories are looked for (two-phase: history/phase/p/index). */
  private static final int DEPTH = 5;

  /** One index's events, oldest first. */
  record Tree(String name, List<ObjectNode> events) {}

  /**
   * Reads every history under {@code dir}.
   *
   * @throws IllegalArgumentException if there is none, naming the directory
   * @throws org.strata.lsm.CorruptionException if a line is damaged, naming file and line
   */
  static LsmHistory read(Path dir) throws IOException {
    List<Path> dirs;
    try (Stream<Path> s = Files.walk(dir, DEPTH)) {
      dirs = s.filter(p -> p.getFileName() != null
              && (p.getFileName().toString().equals(HistoryFile.NAME)
                  || p.getFileName().toString().equals(HistoryFile.PREVIOUS)))
          .map(Path::getParent).distinct().sorted().toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException(dir + " holds no " + HistoryFile.NAME + " file: strata"
          + " lsm reads the history that a store, each index of a dataset, and a two-phase run's"
          + " --out directory keep (written by this version of Strata on)");
    }
    List<Tree> trees = new ArrayList<>();
    int torn = 0;
    for (Path d : dirs) {
      int[] cut = new int[1];
      List<ObjectNode> events = new ArrayList<>();
      for (String line : HistoryFile.read(d, cut)) {
        JsonNode n = JSON.readTree(line);
        if (n instanceof ObjectNode o && o.has("t") && o.has("event")) {
          events.add(o);
        }
      }
      torn += cut[0];
      events.sort(Comparator.comparingLong(e -> e.get("t").asLong()));
      String name = dir.relativize(d).toString();
      trees.add(new Tree(name.isEmpty() ? "." : name, events));
    }
    return new LsmHistory(trees, torn);
  }

  /** Every tree's events as the page's data: {@code {"title", "trees": [{"name", "events"}]}}. */
  ObjectNode toJson(String title) {
    ObjectNode root = JSON.createObjectNode();
    root.put("title", title);
    ArrayNode ts = root.putArray("trees");
    for (Tree t : trees) {
      ObjectNode o = ts.addObject();
      o.put("name", t.name());
      ArrayNode es = o.putArray("events");
      t.events().forEach(es::add);
    }
    return root;
  }

  /** Events that change the runs (everything but stalls), over all trees. */
  int versionEvents() {
    int n = 0;
    for (Tree t : trees) {
      for (ObjectNode e : t.events()) {
        if (!"stall".equals(e.get("event").asText())) {
          n++;
        }
      }
    }
    return n;
  }
}
