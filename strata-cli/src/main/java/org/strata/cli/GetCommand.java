package org.strata.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import org.strata.lsm.LsmStore;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata get}: prints the value of a key (a dataset's record as JSON), or {@code not found}
 * with exit code 1.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Print the value of KEY, or for a dataset its record as JSON; prints 'not found'"
        + " and exits 1 when it is absent.")
final class GetCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Parameters(index = "0", paramLabel = "KEY") String key;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (Dataset.isDataset(store.dir)) {
      Optional<DatasetRecord> r;
      try (Dataset ds = StoreLog.open(spec, store.dir, () -> Dataset.open(store.dir, null))) {
        r = ds.get(key);
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
    byte[] k = Utf8.encode(key, "key");
    try (LsmStore s = store.openExisting()) {
      v = s.get(k);
    }
    if (v.isEmpty()) {
      spec.commandLine().getOut().println("not found");
      return 1;
    }
    spec.commandLine().getOut().println(ScanCommand.text(v.get(), "value of key", key));
    return 0;
  }
}
