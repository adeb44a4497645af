package org.strata.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.strata.lsm.LsmStore;
import org.strata.lsm.WriteBatch;
import org.strata.lsm.config.StoreConfigJson;

/**
 * The child process of {@link TriadMemCrashTest}: writes batches to a store with TRIAD-MEM on
 * until it is killed and prints {@code acked N} once batch N is durable ({@code sync}). Batch i
 * sets {@code seq} to i and {@code hot<i mod 5>} to a value of i, and, in the cold phases (i / 300
 * even), adds {@code cold<i>}: the hot keys are carried over at flushes, and the hot-only phases
 * leave components below the flush threshold, whose flushes are skipped.
 *
 * <p>Arguments: store directory, configuration file, first batch number (after a restart, the
 * number after the last batch the store holds).
 */
public final class TriadMemCrashChild {
  static final int HOT_KEYS = 5;
  static final int PHASE = 300;

  private TriadMemCrashChild() {}

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String hotKey(long i) {
    return "hot" + (i % HOT_KEYS);
  }

  static String coldKey(long i) {
    return String.format("cold%09d", i);
  }

  static boolean coldPhase(long i) {
    return (i / PHASE) % 2 == 0;
  }

  static byte[] value(long i) {
    return b(String.format("value-%012d-%060d", i, i * 7919));
  }

  /** A cold key's value: large, so that cold phases flush and merge often. */
  static byte[] coldValue(long i) {
    return b(String.format("cold-%012d-%0400d", i, i * 104729));
  }

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    long i = Long.parseLong(args[2]);
    try (LsmStore store = LsmStore.open(dir, StoreConfigJson.read(Path.of(args[1])))) {
      while (true) {
        WriteBatch batch = new WriteBatch().put(b("seq"), b(Long.toString(i)))
            .put(b(hotKey(i)), value(i));
        if (coldPhase(i)) {
          batch.put(b(coldKey(i)), coldValue(i));
        }
        store.write(batch);
        System.out.println("acked " + i);
        i++;
      }
    }
  }
}
