package org.strata.lsm.testing;

import java.nio.file.Path;

/** What a file of a store is, judged by its name (docs/format.md names them). */
public enum FileKind {
  /** {@code <number>.cmp.tmp}: a disk component being written by a flush or merge. */
  COMPONENT_TMP,
  /** {@code <number>.cmp}: a disk component. */
  COMPONENT,
  /** {@code MANIFEST.tmp}: the next manifest being written. */
  MANIFEST_TMP,
  /** {@code MANIFEST}. */
  MANIFEST,
  /** {@code wal-<lsn>.log}: a write-ahead log segment. */
  LOG_SEGMENT,
  /** {@code CATALOG} and {@code CATALOG.tmp}: the log's list of its segments. */
  LOG_CATALOG,
  /** {@code *.corrupt-*}: log bytes recovery set aside. */
  LOG_SET_ASIDE,
  /** {@code config.json}, {@code dataset.json} and their {@code .tmp}. */
  CONFIG,
  /** A directory (forced after a creation or rename in it). */
  DIRECTORY,
  /** Anything else. */
  OTHER;

  /** The kind of {@code path}; {@code directory} says whether the step was on a directory. */
  public static FileKind of(Path path, boolean directory) {
    if (directory) {
      return DIRECTORY;
    }
    String n = path.getFileName().toString();
    if (n.contains(".corrupt-")) {
      return LOG_SET_ASIDE;
    }
    if (n.endsWith(".cmp.tmp")) {
      return COMPONENT_TMP;
    }
    if (n.endsWith(".cmp")) {
      return COMPONENT;
    }
    if (n.equals("MANIFEST.tmp")) {
      return MANIFEST_TMP;
    }
    if (n.equals("MANIFEST")) {
      return MANIFEST;
    }
    if (n.equals("CATALOG") || n.equals("CATALOG.tmp")) {
      return LOG_CATALOG;
    }
    if (n.startsWith("wal-") && n.endsWith(".log")) {
      return LOG_SEGMENT;
    }
    if (n.startsWith("config.json") || n.startsWith("dataset.json")) {
      return CONFIG;
    }
    return OTHER;
  }
}
