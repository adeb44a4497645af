package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.cli.CliTest.Result;

/**
 * Two mistakes on the command line that were not named. {@code --dir ""} was the working directory
 * ({@code Path.of("")}): {@code put --dir ""} created a store there. And a configuration error that
 * the engine finds when it opens the store (an unknown merge policy or scheduler, a bad policy
 * parameter) did not name the {@code --config} file it came from.
 */
class DirAndConfigErrorsTest {
  @TempDir Path tmp;

  private static final String EMPTY_DIR = "error: Invalid value for option '--dir': an empty path"
      + " is not allowed; give a path ('.' is the working directory)";

  /**
   * Every command that takes --dir refuses an empty one with one line and a pointer to its help.
   * Those that create a store or dataset run in child processes whose working directory is an
   * empty directory, which must stay empty.
   */
  @Test
  void anEmptyDirIsRefusedByEveryCommandAndNothingIsCreated() throws Exception {
    Path cwd = Files.createDirectory(tmp.resolve("cwd"));
    Path records = tmp.resolve("records.jsonl");
    Files.writeString(records, "{\"key\": \"k1\", \"fields\": {\"f\": \"v\"}}\n");
    Path dsConfig = tmp.resolve("ds.json");
    Files.writeString(dsConfig,
        "{\"secondary-indexes\": [{\"name\": \"by_f\", \"field\": \"f\"}]}");
    List<List<String>> creators = List.of(
        List.of("put", "--dir", "", "k", "v"),
        List.of("load", "--dir", "", "--records", "10"),
        List.of("import", "--dir", "", "--config", dsConfig.toString(), "--file",
            records.toString()),
        List.of("feed-server", "--dir", "", "--config", dsConfig.toString(), "--port", "0"),
        List.of("crashtest", "--dir", "", "--kills", "1", "--seconds", "1"));
    for (List<String> c : creators) {
      CliChild.Result r = CliChild.run(tmp.resolve("scratch"), cwd, Map.of(), List.of(),
          "strata \"$@\"", c.toArray(String[]::new));
      assertThat(r.code()).as(c + ": " + r.err()).isEqualTo(2);
      assertThat(r.errLines()).as(c + ": " + r.err()).hasSize(2);
      assertThat(r.errLines().get(0)).isEqualTo(EMPTY_DIR);
      assertThat(r.errLines().get(1)).isEqualTo("Try 'strata " + c.get(0)
          + " --help' for its options.");
      try (var s = Files.list(cwd)) {
        assertThat(s).as(c + " created nothing in the working directory").isEmpty();
      }
    }
    List<List<String>> others = List.of(List.of("get", "--dir", "", "k"),
        List.of("delete", "--dir", "", "k"), List.of("scan", "--dir", ""),
        List.of("stats", "--dir", ""), List.of("verify", "--dir", ""),
        List.of("readbench", "--dir", "", "--records", "1"),
        List.of("query", "--dir", "", "--index", "by_f", "--eq", "v"));
    for (List<String> c : others) {
      Result r = CliTest.run(c.toArray(String[]::new));
      assertThat(r.code()).as(c + ": " + r.err()).isEqualTo(2);
      assertThat(r.err().lines().toList()).as(c.toString()).hasSize(2).first()
          .isEqualTo(EMPTY_DIR);
    }
  }

  /**
   * A configuration error in a file given with --config names the file, whether the file's reader
   * finds it (an unknown key) or the engine does when it creates the merge policy and scheduler
   * the file names; with --set, the overrides are named too. Nothing is created.
   */
  @Test
  void everyConfigurationErrorOfAConfigFileNamesTheFile() throws Exception {
    Path policy = tmp.resolve("policy.json");
    Files.writeString(policy, "{\"merge-policy\": {\"name\": \"binomal\"}}");
    Path parameter = tmp.resolve("parameter.json");
    Files.writeString(parameter, "{\"merge-policy\": {\"name\": \"tiering\", \"parameters\":"
        + " {\"size-ratio\": \"-3\"}}}");
    Path scheduler = tmp.resolve("scheduler.json");
    Files.writeString(scheduler, "{\"merge-scheduler\": {\"name\": \"nope\"}}");
    String d = tmp.resolve("never").toString();
    List<String[]> runs = new ArrayList<>();
    for (Path f : List.of(policy, parameter, scheduler)) {
      runs.add(new String[] {"put", "--dir", d, "--config", f.toString(), "k", "v"});
      runs.add(new String[] {"load", "--dir", d, "--config", f.toString(), "--records", "10"});
      runs.add(new String[] {"load", "--dir", d, "--config", f.toString(), "--records", "10",
          "--durability", "none"});
    }
    Path records = tmp.resolve("records.jsonl");
    Files.writeString(records, "{\"key\": \"k1\", \"fields\": {\"f\": \"v\"}}\n");
    Path dataset = tmp.resolve("dataset.json");
    Files.writeString(dataset, "{\"merge-policy\": {\"name\": \"binomal\"},"
        + " \"secondary-indexes\": [{\"name\": \"by_f\", \"field\": \"f\"}]}");
    runs.add(new String[] {"import", "--dir", d, "--config", dataset.toString(), "--file",
        records.toString()});
    String experiment = "\"load\": {\"records\": 1000}, \"testing\": {\"duration-seconds\": 5,"
        + " \"warmup-seconds\": 1}, \"running\": {\"duration-seconds\": 5}";
    Path twoPhase = tmp.resolve("two-phase.json");
    Files.writeString(twoPhase, "{\"dataset\": {\"merge-policy\": {\"name\": \"binomal\"}}, "
        + experiment + "}");
    String out = tmp.resolve("out").toString();
    runs.add(new String[] {"two-phase", "--config", twoPhase.toString(), "--out", out});
    Path noDataset = tmp.resolve("no-dataset.json");
    Files.writeString(noDataset, "{" + experiment + "}");
    runs.add(new String[] {"two-phase", "--config", noDataset.toString(), "--out", out});
    Path good = tmp.resolve("good.json");
    Files.writeString(good, "{\"dataset\": {}, " + experiment + "}");
    runs.add(new String[] {"two-phase", "--config", good.toString(), "--out", out, "--set",
        "testing.merge-scheduler.name=nope"});
    Path compare = tmp.resolve("compare.json");
    Files.writeString(compare, "{" + experiment + ", \"systems\": [{\"name\": \"strata\","
        + " \"merge-policy\": {\"name\": \"binomal\"}}]}");
    runs.add(new String[] {"compare", "--config", compare.toString(), "--out", out});

    for (String[] args : runs) {
      Result r = CliTest.run(args);
      String file = args[java.util.Arrays.asList(args).indexOf("--config") + 1];
      assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(2);
      assertThat(r.err().lines().toList()).as(String.join(" ", args)).hasSize(1).first()
          .asString().startsWith("error: " + file + (args[args.length - 2].equals("--set")
              ? " with --set " + args[args.length - 1] : "") + ": ")
          .containsAnyOf("binomal", "size-ratio", "nope", "'dataset' is missing");
    }
    Path paper = tmp.resolve("paper.json");
    Files.writeString(paper, "{\"policies\": 5}");
    Result reproduce = CliTest.run("reproduce", "mao", "--config", paper.toString(), "--out",
        out);
    assertThat(reproduce.code()).isEqualTo(2);
    assertThat(reproduce.err()).startsWith("error: " + paper + ": mao configuration: ");
    assertThat(Path.of(d)).doesNotExist();
    assertThat(Path.of(out)).doesNotExist();
  }
}
