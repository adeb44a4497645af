package org.strata.lsm.dataset;

import java.nio.file.Path;
import org.strata.lsm.config.ConfigMapper;
import org.strata.lsm.io.FileIo;

/**
 * Reads and writes a dataset's configuration file ({@code dataset.json}): a store configuration
 * plus {@code secondary-indexes}, {@code secondary-maintenance} and {@code partitions} at the same
 * level. The names the engine, the command line and the tests use for {@link ConfigMapper} bound to
 * {@link DatasetConfig}.
 */
public final class DatasetConfigJson {
  private DatasetConfigJson() {}

  /** Parses a configuration file. */
  public static DatasetConfig read(Path file) {
    return ConfigMapper.read(file, DatasetConfig.class);
  }

  /** Parses a configuration file read through {@code io}. */
  public static DatasetConfig read(Path file, FileIo io) {
    return ConfigMapper.read(file, DatasetConfig.class, io);
  }

  /** Parses configuration text; {@code source} names it in errors. */
  public static DatasetConfig parse(String json, String source) {
    return ConfigMapper.parse(json, source, DatasetConfig.class);
  }

  /** The configuration as JSON, in the shape {@link #parse} reads. */
  public static String toJson(DatasetConfig c) {
    return ConfigMapper.toJson(c);
  }
}
