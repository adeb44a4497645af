package org.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.config.ConfigMapper;
import org.strata.lsm.config.ConfigOverrides;
import picocli.CommandLine.Option;

/**
 * The {@code --set key.path=value} option of commands that read an experiment configuration file
 * ({@code two-phase}, {@code compare}), and the reading of that file with the overrides applied
 * to its JSON tree before it is bound, so each is checked as the same value in the file would be.
 */
final class ConfigOverridesOption {
  @Option(names = "--set", paramLabel = "KEY.PATH=VALUE",
      description = "Override a configuration key, e.g. --set dataset.memory-component.size=16MB"
          + " or --set running.utilizations=[0.5,0.9]; repeat for several. Checked as the same"
          + " value in the file would be.")
  List<String> sets = new ArrayList<>();

  /** A reader of configuration text: the text, where it came from, the default name. */
  interface Parser<T> {
    T parse(String json, String source, String defaultName);
  }

  /** How errors name the configuration: the file, and the overrides if there are any. */
  String source(Path file) {
    return sets.isEmpty() ? file.toString() : file + " with --set " + String.join(" ", sets);
  }

  /** Reads {@code file} with the overrides; its name without {@code .json} is the default name. */
  <T> T read(Path file, Parser<T> parser) {
    String text = ConfigMapper.readText(file);
    if (!sets.isEmpty()) {
      JsonNode root = ConfigMapper.readTree(text, file.toString());
      ConfigOverrides.apply(root, sets);
      text = root.toString();
    }
    String source = source(file);
    String n = file.getFileName().toString();
    String name = n.endsWith(".json") ? n.substring(0, n.length() - 5) : n;
    String json = text;
    // A check made after binding (a missing section) names the file as the binding's errors do.
    return ConfigFiles.naming(source, () -> parser.parse(json, source, name));
  }
}
