package org.strata.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.strata.lsm.LsmStore;
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
    try (LsmStore s = store.open()) {
      s.delete(key.getBytes(StandardCharsets.UTF_8));
      s.sync();
    }
    return 0;
  }
}
