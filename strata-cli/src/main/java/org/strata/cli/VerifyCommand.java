package org.strata.cli;

import java.nio.file.Path;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.dataset.DatasetVerifier;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.engine.StoreVerifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata verify}: checks every page, footer, key order and Bloom filter of a store, or of
 * every index of a dataset and that its secondary indexes agree with its primary index.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Check every page checksum, key order inside and across pages, footers, and "
        + "that each Bloom filter answers yes for every key it holds; for a dataset, of every "
        + "index, and that each secondary index agrees with the primary. Exits 1 on any fault.")
final class VerifyCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (Dataset.isDataset(dir)) {
      return verifyDataset();
    }
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

  /** Every tree's components, then the agreement of the secondary indexes with the primary. */
  private int verifyDataset() {
    PrintWriter out = spec.commandLine().getOut();
    int faults = 0;
    int components = 0;
    long entries = 0;
    DatasetConfig cfg = DatasetConfigJson.read(dir.resolve(Dataset.CONFIG_FILE));
    List<String> indexes = new ArrayList<>();
    indexes.add(SecondaryIndexSpec.PRIMARY);
    cfg.secondaryIndexes().forEach(x -> indexes.add(x.name()));
    for (int p = 0; p < cfg.partitions(); p++) {
      for (String index : indexes) {
        StoreVerifier.VerifyReport r = StoreVerifier.verify(dir.resolve("p" + p).resolve(index));
        for (String f : r.faults()) {
          out.println("FAULT: p" + p + "/" + index + ": " + f);
        }
        faults += r.faults().size();
        components += r.componentsChecked();
        entries += r.entriesChecked();
      }
    }
    try (Dataset ds = Dataset.open(dir, null)) {
      DatasetVerifier.Report d = ds.verify();
      for (String f : d.faults()) {
        out.println("FAULT: " + f);
      }
      faults += d.faults().size();
      out.println("verified " + components + " components, " + entries + " entries; "
          + d.records() + " records, secondary entries " + d.entries() + ", stale entries "
          + d.staleEntries() + ": " + (faults == 0 ? "ok" : faults + " faults"));
    }
    out.flush();
    return faults == 0 ? 0 : 1;
  }
}
