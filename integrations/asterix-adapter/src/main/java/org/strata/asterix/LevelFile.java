package org.strata.asterix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.FileIo;

/**
 * What Hyracks components do not store for Strata: each component's level and flushed bytes, and
 * the largest flush the index has had (the M by which the level policies size levels, {@link
 * org.strata.lsm.spi.MergeContext#largestFlushBytes()}), in {@value #NAME} in the index directory
 * (a dot file, which Hyracks' component-file listing skips). A header line {@code strata-levels 3
 * <crc32c hex> <length>}, then {@code length} bytes: a line {@code largest-flush <bytes>} and one
 * line per component, {@code <S_E> <level> <flushed bytes>}; written whole or not at all
 * (temporary file, force, atomic rename). An entry is written when a merge is scheduled, under the
 * name its output will have, so a merge that completes just before a crash keeps its level;
 * entries of components that no longer exist are dropped at the next write. A missing or
 * unreadable file, or one that fails its checksum, means every component starts at level 0 (a
 * warning says so): a damaged byte never changes a level silently. Files of the earlier formats
 * ({@value #HEADER_2}, and {@value #HEADER_1} without a largest-flush line, read with a largest
 * flush of 0) have no checksum and are read line by line, skipping bad lines.
 */
final class LevelFile {
  static final String NAME = ".strata-levels";
  static final String HEADER = "strata-levels 3";
  static final String HEADER_2 = "strata-levels 2";
  static final String HEADER_1 = "strata-levels 1";
  static final String LARGEST_FLUSH = "largest-flush";
  private static final Logger LOG = LogManager.getLogger(LevelFile.class);

  /**
   * A component's saved state.
   *
   * @param level the level the policy gave it
   * @param flushedBytes bytes of the flushes it holds
   */
  record Entry(int level, long flushedBytes) {}

  /**
   * What the file holds.
   *
   * @param entries each component's entry by name
   * @param largestFlush bytes of the largest flush the index has had; 0 if not saved
   */
  record Saved(Map<String, Entry> entries, long largestFlush) {
    static final Saved NOTHING = new Saved(Map.of(), 0);
  }

  private final Path file;

  LevelFile(Path indexDirectory) {
    this.file = indexDirectory.resolve(NAME);
  }

  Path path() {
    return file;
  }

  /** What the file holds; nothing if there is no file or it cannot be read. */
  Saved read() {
    byte[] all;
    try {
      all = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Saved.NOTHING;
    } catch (IOException e) {
      LOG.warn("cannot read {}; its components start at level 0", file, e);
      return Saved.NOTHING;
    }
    int nl = 0;
    while (nl < all.length && all[nl] != '\n') {
      nl++;
    }
    String first = new String(all, 0, nl, StandardCharsets.UTF_8);
    if (first.startsWith(HEADER + " ")) {
      return readChecked(first, all, nl);
    }
    List<String> lines = new String(all, StandardCharsets.UTF_8).lines().toList();
    if (lines.isEmpty() || !(lines.get(0).equals(HEADER_2) || lines.get(0).equals(HEADER_1))) {
      LOG.warn("{} does not start with '{}'; its components start at level 0", file, HEADER);
      return Saved.NOTHING;
    }
    return parse(lines);
  }

  /** A file of the current format: the whole file, or nothing if it fails its checksum. */
  private Saved readChecked(String first, byte[] all, int nl) {
    String[] h = first.split(" ");
    long crc;
    int length;
    try {
      if (h.length != 4) {
        throw new NumberFormatException("expected 4 fields");
      }
      crc = Long.parseLong(h[2], 16);
      length = Integer.parseInt(h[3]);
    } catch (NumberFormatException e) {
      LOG.warn("{}: bad header '{}'; its components start at level 0", file, first);
      return Saved.NOTHING;
    }
    CRC32C c = new CRC32C();
    if (length == all.length - nl - 1) {
      c.update(all, nl + 1, length);
    }
    if (length != all.length - nl - 1 || c.getValue() != crc) {
      LOG.warn("{} fails its checksum (damaged); its components start at level 0", file);
      return Saved.NOTHING;
    }
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    new String(all, nl + 1, length, StandardCharsets.UTF_8).lines().forEach(lines::add);
    return parse(lines);
  }

  /** The entries of {@code lines} (the first is the header), skipping bad lines. */
  private Saved parse(List<String> lines) {
    Map<String, Entry> out = new LinkedHashMap<>();
    long largestFlush = 0;
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).trim().split(" ");
      try {
        if (f.length == 2 && f[0].equals(LARGEST_FLUSH)) {
          largestFlush = Long.parseLong(f[1]);
          continue;
        }
        if (f.length != 3) {
          throw new NumberFormatException("expected 3 fields");
        }
        out.put(f[0], new Entry(Integer.parseInt(f[1]), Long.parseLong(f[2])));
      } catch (NumberFormatException e) {
        LOG.warn("{} line {}: '{}' is neither '<S_E> <level> <bytes>' nor '{} <bytes>'; skipped",
            file, i + 1, lines.get(i), LARGEST_FLUSH);
      }
    }
    return new Saved(out, largestFlush);
  }

  /**
   * Replaces the file with {@code entries} and {@code largestFlush}; a failure is logged (levels
   * stay in memory).
   */
  void write(Map<String, Entry> entries, long largestFlush) {
    StringBuilder sb = new StringBuilder();
    sb.append(LARGEST_FLUSH).append(' ').append(largestFlush).append('\n');
    entries.forEach((name, e) -> sb.append(name).append(' ').append(e.level()).append(' ')
        .append(e.flushedBytes()).append('\n'));
    byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(body);
    byte[] head = (HEADER + " " + Long.toHexString(crc.getValue()) + " " + body.length + "\n")
        .getBytes(StandardCharsets.UTF_8);
    try {
      Directories.writeAtomically(FileIo.standard(), file, ByteBuffer.wrap(head),
          ByteBuffer.wrap(body));
    } catch (IOException e) {
      LOG.warn("cannot write {}; levels are kept in memory only until it can be", file, e);
    }
  }
}
