package org.strata.twophase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.strata.lsm.config.ConfigMapper;

/**
 * Reads and writes a two-phase experiment configuration (docs/two-phase.md) through the one
 * configuration mapper ({@link ConfigMapper}): the names the command line, the comparison reader
 * and the tests use for it. Every key but {@code dataset} has a default; unknown keys and bad
 * values fail naming the key, the value and what is allowed (the rules are {@link
 * TwoPhaseConfig}'s records').
 */
public final class TwoPhaseConfigJson {
  private TwoPhaseConfigJson() {}

  /** Reads a configuration file; the file name (without {@code .json}) is the default name. */
  public static TwoPhaseConfig read(Path file) {
    String n = file.getFileName().toString();
    return parse(ConfigMapper.readText(file), file.toString(),
        n.endsWith(".json") ? n.substring(0, n.length() - 5) : n);
  }

  /** Parses configuration text; a configuration without a name takes {@code defaultName}. */
  public static TwoPhaseConfig parse(String json, String source, String defaultName) {
    return bind(ConfigMapper.readTree(json, source), source, defaultName);
  }

  /** Binds a parsed configuration; a configuration without a name takes {@code defaultName}. */
  public static TwoPhaseConfig bind(JsonNode root, String source, String defaultName) {
    TwoPhaseConfig c = ConfigMapper.bind(root, source, defaultName, "", TwoPhaseConfig.class);
    return c.name() == null ? c.withName(defaultName) : c;
  }

  /** The configuration as JSON (the dataset in its saved form), for summary.json. */
  public static ObjectNode toJson(TwoPhaseConfig c) {
    return ConfigMapper.toTree(c);
  }

  /** The configuration as indented JSON text, in the shape {@link #parse} reads. */
  public static String toText(TwoPhaseConfig c) {
    return ConfigMapper.toJson(c);
  }
}
