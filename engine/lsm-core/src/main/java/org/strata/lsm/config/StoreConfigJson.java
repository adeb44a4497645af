package org.strata.lsm.config;

import java.nio.file.Path;
import org.strata.lsm.io.FileIo;

/**
 * Reads and writes a store's configuration file ({@code config.json}, docs/configuration.md): the
 * names the engine, the command line and the tests use for {@link ConfigMapper} bound to {@link
 * StoreConfig}. Every rule (unknown and duplicate keys, types, ranges, defaults) is the mapper's
 * and the records'.
 */
public final class StoreConfigJson {
  private StoreConfigJson() {}

  /** Parses a configuration file. */
  public static StoreConfig read(Path file) {
    return ConfigMapper.read(file, StoreConfig.class);
  }

  /** Parses a configuration file read through {@code io}. */
  public static StoreConfig read(Path file, FileIo io) {
    return ConfigMapper.read(file, StoreConfig.class, io);
  }

  /** Parses configuration text; {@code source} names it in errors. */
  public static StoreConfig parse(String json, String source) {
    return ConfigMapper.parse(json, source, StoreConfig.class);
  }

  /** The configuration as JSON, in the same shape {@link #parse} reads. */
  public static String toJson(StoreConfig c) {
    return ConfigMapper.toJson(c);
  }
}
