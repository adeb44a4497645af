package org.strata.lsm.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Crash images of store directories, and the byte flips and snapshots tests apply to them. */
public final class LogImages {
  private LogImages() {}

  /**
   * Copies a directory tree: taken after {@code sync()}, it is what a crash at that moment leaves.
   */
  public static Path copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    return to;
  }

  /** The log segment with the highest first sequence number in {@code logDir}. */
  public static Path newestSegment(Path logDir) throws IOException {
    try (Stream<Path> s = Files.list(logDir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted()
          .reduce((a, c) -> c).orElseThrow();
    }
  }

  /**
   * Flips the lowest bit of the last byte of the first occurrence of {@code text} in {@code file}.
   *
   * @return the offset of that occurrence
   */
  public static int flipInside(Path file, String text) throws IOException {
    byte[] data = Files.readAllBytes(file);
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + needle.length <= data.length; i++) {
      if (Arrays.equals(data, i, i + needle.length, needle, 0, needle.length)) {
        data[i + needle.length - 1] ^= 0x01;
        Files.write(file, data);
        return i;
      }
    }
    throw new AssertionError(text + " is not in " + file);
  }

  /**
   * Every path under {@code root}: directories and symbolic links marked, files with their size and
   * SHA-256.
   */
  public static Map<String, String> snapshot(Path root) throws IOException {
    Map<String, String> m = new TreeMap<>();
    if (!Files.exists(root)) {
      return m;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String what;
        if (Files.isSymbolicLink(p)) {
          what = "<link to " + Files.readSymbolicLink(p) + ">"; // never read through a link
        } else {
          what = Files.isDirectory(p) ? "<dir>" : digest(p);
        }
        m.put(root.relativize(p).toString(), what);
      }
    }
    return m;
  }

  private static String digest(Path p) throws IOException {
    byte[] data = Files.readAllBytes(p);
    try {
      return data.length + " bytes, sha256 " + HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
