package org.strata.crash;

import java.util.List;

/** What the crash test's child process writes through. */
public enum WriterKind {
  /** {@code LsmStore.put} and {@code delete} on a standalone store, one at a time. */
  STORE("store"),
  /** {@code Dataset.upsert} and {@code delete} on a dataset with secondary indexes (an import). */
  DATASET("dataset"),
  /**
   * Lines with {@code "ack": true} sent to the child's feed server over 127.0.0.1, one at a
   * time; a write counts as acknowledged when its {@code {"ok":true}} reply arrives.
   */
  FEED("feed");

  private final String configName;

  WriterKind(String configName) {
    this.configName = configName;
  }

  /** The name on the command line. */
  public String configName() {
    return configName;
  }

  /** Whether the writer writes a dataset (with secondary indexes) rather than a store. */
  public boolean dataset() {
    return this != STORE;
  }

  /** The kinds {@code --writer} names: one kind, or {@code all}. */
  public static List<WriterKind> parseSelection(String name) {
    if (name.equals("all")) {
      return List.of(values());
    }
    for (WriterKind k : values()) {
      if (k.configName.equals(name)) {
        return List.of(k);
      }
    }
    throw new IllegalArgumentException("--writer: '" + name + "' is not allowed; allowed: store,"
        + " dataset, feed, all");
  }
}
