package org.strata.cli;

import java.util.concurrent.Callable;
import org.strata.lsm.engine.LsmStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code strata delete}: writes anti-matter for a key. */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Delete KEY (writes anti-matter); durable on return.")
final class DeleteCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Option(names = "--hex", description = "KEY is hex digits, two per byte (e.g. ff00).")
  boolean hex;

  @Parameters(index = "0", paramLabel = "KEY") String key;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    byte[] k = Main.argv(spec).bytes(spec, "KEY", key, hex); // refused before anything is opened
    try (LsmStore s = store.openExisting()) {
      s.delete(k);
      s.sync();
    }
    return 0;
  }
}
