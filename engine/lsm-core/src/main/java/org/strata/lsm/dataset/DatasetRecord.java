package org.strata.lsm.dataset;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A record of a dataset: its primary key and its named string fields (YCSB's {@code field0} ..
 * {@code field9}, or any others). Fields are kept sorted by name.
 */
public record DatasetRecord(String key, Map<String, String> fields) {
  public DatasetRecord {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a record needs a non-empty primary key");
    }
    fields = Collections.unmodifiableMap(new TreeMap<>(fields));
  }
}
