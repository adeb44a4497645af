package org.strata.cli;

import java.nio.file.Path;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.strata.lsm.engine.StoreVerifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code strata verify}: checks every page, footer, key order and Bloom filter of a store. */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Check every page checksum, key order inside and across pages, footers, and "
        + "that each Bloom filter answers yes for every key it holds. Exits 1 on any fault.")
final class VerifyCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    StoreVerifier.VerifyReport r = StoreVerifier.verify(dir);
    PrintWriter out = spec.commandLine().getOut();
    for (String f : r.faults()) {
      out.println("FAULT: " + f);
    }
    out.println("verified " + r.componentsChecked() + " components, " + r.entriesChecked()
        + " entries: " + (r.ok() ? "ok" : r.faults().size() + " faults"));
    out.flush();
    return r.ok() ? 0 : 1;
  }
}
