package org.strata.cli;

import java.util.concurrent.Callable;
import org.strata.lsm.engine.LsmStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code strata put}: inserts or replaces one key. */
@Command(name = "put", mixinStandardHelpOptions = true,
    description = "Insert or replace KEY with VALUE (UTF-8 text, or any bytes with --hex); durable"
        + " on return. An argument the JVM could not decode exactly (bytes that are not UTF-8,"
        + " or non-ASCII text in a locale that is not UTF-8) is refused, never changed.")
final class PutCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Option(names = "--hex", description = "KEY and VALUE are hex digits, two per byte (e.g. ff00):"
      + " any bytes.")
  boolean hex;

  @Parameters(index = "0", paramLabel = "KEY") String key;

  @Parameters(index = "1", paramLabel = "VALUE") String value;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ArgText argv = Main.argv(spec);
    // Refused before the store is opened or created.
    byte[] k = argv.bytes(spec, "KEY", key, hex);
    byte[] v = argv.bytes(spec, "VALUE", value, hex);
    try (LsmStore s = store.open()) {
      s.put(k, v);
      s.sync();
    }
    return 0;
  }
}
