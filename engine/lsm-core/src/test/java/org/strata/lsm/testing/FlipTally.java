package org.strata.lsm.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Counts the outcomes of single-byte corruption trials per file kind and prints them as a table:
 * how many trials, how many were detected (an open refused naming the file, a read failed naming
 * file and offset, verify reported it, or a damaged log tail was cut off and said so), how many
 * were harmless (no error and every read correct), how many failed without naming what was wrong
 * (unclear) and how many served wrong data (a read returned a value or an absence that differs
 * from the model). Also flips bytes and copies directory images for the trials.
 */
public final class FlipTally {
  /** What one trial came to. */
  public enum Outcome { DETECTED, HARMLESS, UNCLEAR, SERVED_WRONG }

  private final Map<String, EnumMap<Outcome, Integer>> counts = new LinkedHashMap<>();
  private final List<String> bad = new ArrayList<>();

  /** Records {@code outcome} for a trial of {@code kind}; {@code what} describes the trial. */
  public void add(String kind, Outcome outcome, String what) {
    counts.computeIfAbsent(kind, k -> new EnumMap<>(Outcome.class)).merge(outcome, 1,
        Integer::sum);
    if (outcome == Outcome.SERVED_WRONG || outcome == Outcome.UNCLEAR) {
      bad.add(kind + " " + outcome + ": " + what);
    }
  }

  /** Trials of every kind. */
  public int trials() {
    return counts.values().stream().mapToInt(m -> m.values().stream().mapToInt(i -> i).sum())
        .sum();
  }

  /** Trials with {@code outcome}, over every kind. */
  public int count(Outcome outcome) {
    return counts.values().stream().mapToInt(m -> m.getOrDefault(outcome, 0)).sum();
  }

  /** Trials of {@code kind} with {@code outcome}. */
  public int count(String kind, Outcome outcome) {
    return counts.getOrDefault(kind, new EnumMap<>(Outcome.class)).getOrDefault(outcome, 0);
  }

  /** Descriptions of the served-wrong and unclear trials, in the order they ran. */
  public List<String> badTrials() {
    return List.copyOf(bad);
  }

  /** The table: one line per kind and a total. */
  public String table() {
    StringBuilder sb = new StringBuilder(String.format("%-22s %7s %9s %9s %8s %13s%n", "file kind",
        "trials", "detected", "harmless", "unclear", "served-wrong"));
    counts.forEach((kind, m) -> sb.append(row(kind, m)));
    EnumMap<Outcome, Integer> all = new EnumMap<>(Outcome.class);
    counts.values().forEach(m -> m.forEach((o, n) -> all.merge(o, n, Integer::sum)));
    sb.append(row("total", all));
    return sb.toString();
  }

  private static String row(String kind, EnumMap<Outcome, Integer> m) {
    int trials = m.values().stream().mapToInt(i -> i).sum();
    return String.format("%-22s %7d %9d %9d %8d %13d%n", kind, trials,
        m.getOrDefault(Outcome.DETECTED, 0), m.getOrDefault(Outcome.HARMLESS, 0),
        m.getOrDefault(Outcome.UNCLEAR, 0), m.getOrDefault(Outcome.SERVED_WRONG, 0));
  }

  /** XORs the byte at {@code offset} of {@code file} with {@code mask} (not 0). */
  public static void flip(Path file, long offset, int mask) throws IOException {
    if ((mask & 0xff) == 0) {
      throw new IllegalArgumentException("mask " + mask + " flips no bit");
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      if (ch.read(b, offset) != 1) {
        throw new IOException("no byte at offset " + offset + " of " + file);
      }
      ch.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ mask)}), offset);
    }
  }

  /** Deletes a directory tree (a trial's copy). */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
