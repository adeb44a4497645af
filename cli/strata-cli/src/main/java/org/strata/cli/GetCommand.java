package org.strata.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata get}: prints the value of a key (a dataset's record as JSON), or {@code not found}
 * with exit code 1.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Print the value of KEY, or for a dataset its record as JSON; prints 'not found'"
        + " and exits 1 when it is absent. A value that is not UTF-8 is printed only with --hex.")
final class GetCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Option(names = "--hex", description = "KEY is hex digits, two per byte (e.g. ff00), and the"
      + " value is printed so; for a dataset, the hex of the key's UTF-8 (the record is JSON).")
  boolean hex;

  @Parameters(index = "0", paramLabel = "KEY") String key;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ArgText argv = Main.argv(spec);
    if (Dataset.isDataset(store.dir)) {
      String text = argv.text(spec, "KEY", key, hex);
      Optional<DatasetRecord> r;
      try (Dataset ds = StoreLog.open(spec, store.dir, () -> Dataset.open(store.dir, null))) {
        r = ds.get(text);
      }
      if (r.isEmpty()) {
        spec.commandLine().getOut().println("not found");
        return 1;
      }
      spec.commandLine().getOut().println(StatsJson.MAPPER.writeValueAsString(
          QueryCommand.recordJson(r.get())));
      return 0;
    }
    Optional<byte[]> v;
    byte[] k = argv.bytes(spec, "KEY", key, hex);
    try (LsmStore s = store.openExisting()) {
      v = s.get(k);
    }
    if (v.isEmpty()) {
      spec.commandLine().getOut().println("not found");
      return 1;
    }
    spec.commandLine().getOut().println(hex ? ArgText.hex(v.get())
        : ScanCommand.text(v.get(), "value of key", key));
    return 0;
  }
}
