package org.strata.asterix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.FileIo;

/**
 * What Hyracks components do not store for Strata: each component's level and flushed bytes, in
 * {@value #NAME} in the index directory (a dot file, which Hyracks' component-file listing skips).
 * One line per component, {@code <S_E> <level> <flushed bytes>}, after the header {@value
 * #HEADER}; written whole or not at all (temporary file, force, atomic rename). An entry is written
 * when a merge is scheduled, under the name its output will have, so a merge that completes just
 * before a crash keeps its level; entries of components that no longer exist are dropped at the
 * next write. A missing or unreadable file means every component starts at level 0.
 */
final class LevelFile {
  static final String NAME = ".strata-levels";
  static final String HEADER = "strata-levels 1";
  private static final Logger LOG = LogManager.getLogger(LevelFile.class);

  /**
   * A component's saved state.
   *
   * @param level the level the policy gave it
   * @param flushedBytes bytes of the flushes it holds
   */
  record Entry(int level, long flushedBytes) {}

  private final Path file;

  LevelFile(Path indexDirectory) {
    this.file = indexDirectory.resolve(NAME);
  }

  Path path() {
    return file;
  }

  /** The saved entries by component name; empty if there is no file or it cannot be read. */
  Map<String, Entry> read() {
    Map<String, Entry> out = new LinkedHashMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return out;
    } catch (IOException e) {
      LOG.warn("cannot read {}; its components start at level 0", file, e);
      return out;
    }
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      LOG.warn("{} does not start with '{}'; its components start at level 0", file, HEADER);
      return out;
    }
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).trim().split(" ");
      try {
        if (f.length != 3) {
          throw new NumberFormatException("expected 3 fields");
        }
        out.put(f[0], new Entry(Integer.parseInt(f[1]), Long.parseLong(f[2])));
      } catch (NumberFormatException e) {
        LOG.warn("{} line {}: '{}' is not '<S_E> <level> <bytes>'; skipped", file, i + 1,
            lines.get(i));
      }
    }
    return out;
  }

  /** Replaces the file with {@code entries}; a failure is logged (levels stay in memory). */
  void write(Map<String, Entry> entries) {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    entries.forEach((name, e) -> sb.append(name).append(' ').append(e.level()).append(' ')
        .append(e.flushedBytes()).append('\n'));
    try {
      Directories.writeAtomically(FileIo.standard(), file,
          ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      LOG.warn("cannot write {}; levels are kept in memory only until it can be", file, e);
    }
  }
}
