package org.strata.cli;

import java.util.concurrent.Callable;
import org.strata.lsm.LsmStore;
import org.strata.lsm.Utf8;
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
    byte[] k = Utf8.encode(key, "key"); // refused before the store is opened or created
    byte[] v = Utf8.encode(value, "value");
    try (LsmStore s = store.open()) {
      s.put(k, v);
      s.sync();
    }
    return 0;
  }
}
