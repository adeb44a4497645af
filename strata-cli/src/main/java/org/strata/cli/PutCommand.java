package org.strata.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.strata.lsm.LsmStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code strata put}: inserts or replaces one key. */
@Command(name = "put", mixinStandardHelpOptions = true,
    description = "Insert or replace KEY with VALUE (UTF-8 strings); durable on return.")
final class PutCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Parameters(index = "0", paramLabel = "KEY") String key;

  @Parameters(index = "1", paramLabel = "VALUE") String value;

  @Override
  public Integer call() {
    try (LsmStore s = store.open()) {
      s.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
      s.sync();
    }
    return 0;
  }
}
