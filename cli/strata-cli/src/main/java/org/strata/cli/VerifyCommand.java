package org.strata.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetVerifier;
import org.strata.lsm.engine.StoreVerifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata verify}: checks every file of a closed store or dataset without changing anything
 * (see {@link StoreVerifier} and {@link DatasetVerifier#verifyFiles}). Prints a {@code FAULT:} line
 * per fault (naming the file and offset) and a {@code NOTE:} line per note, then a summary. Exit
 * codes: 0 ok, 1 faults found, 2 the directory is missing or holds no store or dataset.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Check every file of a closed store or dataset without changing anything: "
        + "config.json (or dataset.json), the MANIFEST, every page checksum, key order, footer "
        + "and Bloom filter of each component, leftover files, and every log record; for a "
        + "dataset, every index and partition log, and that each secondary index agrees with the "
        + "primary. Exits 1 on any fault, 2 if the directory holds no store or dataset.")
final class VerifyCommand implements Callable<Integer> {
  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "Store or dataset directory.")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ExistingStore.require(dir);
    int faults;
    if (Dataset.isDataset(dir)) {
      DatasetVerifier.FileReport r = DatasetVerifier.verifyFiles(dir);
      print(out, r.faults(), r.notes());
      DatasetVerifier.Report a = r.agreement();
      out.println("verified " + r.componentsChecked() + " components, " + r.entriesChecked()
          + " entries, " + r.logSegmentsChecked() + " log segments, " + r.logRecordsChecked()
          + " log records" + (a == null ? "" : "; " + a.records() + " records, secondary entries "
          + a.entries() + ", stale entries " + a.staleEntries()) + ": "
          + (r.ok() ? "ok" : r.faults().size() + " faults"));
      faults = r.faults().size();
    } else {
      StoreVerifier.VerifyReport r = StoreVerifier.verify(dir);
      print(out, r.faults(), r.notes());
      out.println("verified " + r.componentsChecked() + " components, " + r.entriesChecked()
          + " entries, " + r.logSegmentsChecked() + " log segments, " + r.logRecordsChecked()
          + " log records: " + (r.ok() ? "ok" : r.faults().size() + " faults"));
      faults = r.faults().size();
    }
    out.flush();
    return faults == 0 ? 0 : 1;
  }

  private static void print(PrintWriter out, List<String> faults, List<String> notes) {
    faults.forEach(f -> out.println("FAULT: " + f));
    notes.forEach(n -> out.println("NOTE: " + n));
  }
}
