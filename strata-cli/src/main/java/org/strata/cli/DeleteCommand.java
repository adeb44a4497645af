package org.strata.cli;

import java.util.concurrent.Callable;
import org.strata.lsm.LsmStore;
import org.strata.lsm.Utf8;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code strata delete}: writes anti-matter for a key. */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Delete KEY (writes anti-matter); durable on return.")
final class DeleteCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Parameters(index = "0", paramLabel = "KEY") String key;

  @Override
  public Integer call() {
    byte[] k = Utf8.encode(key, "key"); // refused before the store is opened or created
    try (LsmStore s = store.openExisting()) {
      s.delete(k);
      s.sync();
    }
    return 0;
  }
}
