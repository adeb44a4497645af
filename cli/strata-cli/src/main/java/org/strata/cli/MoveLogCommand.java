package org.strata.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.engine.LogLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata move-log}: moves a store's (or dataset's) write-ahead log to another directory.
 * The store is opened where its log is (its unflushed writes are replayed) and closed, which
 * flushes them; then it is opened with {@code log.dir} naming the new directory, where a new log
 * starts, and the old log's files are removed (docs/format.md, "Where the log is").
 */
@Command(name = "move-log", mixinStandardHelpOptions = true,
    description = "Move the write-ahead log of a store or dataset to directory DIR (absolute, or"
        + " relative to the store): replays and flushes the old log, starts a new one in DIR,"
        + " saves log.dir and removes the old log's files. The configuration is otherwise kept.")
final class MoveLogCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "The store or dataset directory.")
  Path dir;

  @Option(names = "--to", required = true, paramLabel = "LOGDIR",
      description = "The log's new directory (absolute, or relative to the store's directory).")
  Path to;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    ExistingStore.require(dir);
    PrintWriter out = spec.commandLine().getOut();
    if (Dataset.isDataset(dir)) {
      // Replays and flushes every partition's log.
      StoreLog.open(spec, dir, () -> Dataset.open(dir, null)).close();
      DatasetConfig saved = DatasetConfigJson.read(dir.resolve(Dataset.CONFIG_FILE));
      StoreConfig s = saved.store();
      StoreLog.open(spec, dir, () -> Dataset.open(dir,
          saved.withStore(s.withLog(s.log().withDir(to.toString()))))).close();
      out.println("moved the logs of dataset " + dir + " to " + to + " (one directory per"
          + " partition there)");
      return 0;
    }
    StoreLog.open(spec, dir, () -> LsmStore.open(dir, null)).close(); // replays and flushes
    StoreConfig saved = StoreConfigJson.read(dir.resolve("config.json"));
    // TRIAD-LOG: the log segments of CL-SSTables (*.clog) live beside the log and move with it.
    Path oldLog = LogLocation.configured(dir, saved);
    Path newLog = dir.toAbsolutePath().normalize().resolve(to).normalize();
    if (!oldLog.equals(newLog) && Files.isDirectory(oldLog)) {
      try (Stream<Path> s = Files.list(oldLog)) {
        List<Path> clogs = s.filter(p -> p.getFileName().toString().endsWith(".clog")).toList();
        if (!clogs.isEmpty()) {
          Files.createDirectories(newLog);
          for (Path p : clogs) {
            Files.move(p, newLog.resolve(p.getFileName()));
          }
        }
      }
    }
    StoreLog.open(spec, dir, () -> LsmStore.open(dir,
        saved.withLog(saved.log().withDir(to.toString())))).close();
    out.println("moved the log of " + dir + " to " + to);
    return 0;
  }
}
