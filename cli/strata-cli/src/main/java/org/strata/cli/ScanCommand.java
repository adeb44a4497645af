package org.strata.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StrataException;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code strata scan}: prints the live keys of a range. */
@Command(name = "scan", mixinStandardHelpOptions = true,
    description = "Print key<TAB>value for every live key with FROM <= key <= TO, in key order;"
        + " for a dataset, every record with FROM <= primary key <= TO as one JSON object per"
        + " line ({\"key\": ..., \"fields\": {...}}, the form import reads).")
final class ScanCommand implements Callable<Integer> {
  @Mixin StoreOptions store;

  @Option(names = "--from", paramLabel = "KEY", description = "First key (inclusive).")
  String from;

  @Option(names = "--to", paramLabel = "KEY", description = "Last key (inclusive).")
  String to;

  @Option(names = "--limit", paramLabel = "N", description = "Print at most N entries.",
      converter = QuantityConverters.Count.class)
  Long limit;

  @Option(names = "--count", description = "Print only the number of entries.")
  boolean count;

  @Option(names = "--hex", description = "--from and --to are hex digits, two per byte (e.g."
      + " ff00), and keys and values are printed so: any bytes, unambiguously. Without it a key"
      + " or value that is not UTF-8 stops the scan with an error. For a dataset, the hex of the"
      + " keys' UTF-8 (records are JSON).")
  boolean hex;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (limit != null && limit < 0) {
      throw new ParameterException(spec.commandLine(),
          "--limit must be 0 or more, got " + limit);
    }
    long max = limit == null ? Long.MAX_VALUE : limit;
    PrintWriter out = spec.commandLine().getOut();
    ArgText argv = Main.argv(spec);
    ExistingStore.require(store.dir);
    if (Dataset.isDataset(store.dir)) {
      return datasetScan(out, max, argv.text(spec, "--from", from, hex),
          argv.text(spec, "--to", to, hex));
    }
    byte[] lo = argv.bytes(spec, "--from", from, hex);
    byte[] hi = argv.bytes(spec, "--to", to, hex);
    long n = 0;
    try (LsmStore s = store.openExisting();
        ScanCursor c = s.scan(lo, hi)) {
      if (count) {
        while (n < max && c.hasNext()) {
          c.next();
          n++;
        }
        out.println(n);
      } else {
        BufferedWriter w = new BufferedWriter(out, 1 << 16);
        while (n < max && c.hasNext()) {
          KeyValue kv = c.next();
          if (hex) {
            w.write(ArgText.hex(kv.key()));
            w.write('\t');
            w.write(ArgText.hex(kv.value()));
          } else {
            String k = text(kv.key(), "key", null);
            w.write(k);
            w.write('\t');
            w.write(text(kv.value(), "value of key", k));
          }
          w.write('\n');
          n++;
        }
        w.flush();
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    out.flush();
    return 0;
  }

  /**
   * A dataset's records from --from to --to as JSON lines, read in pieces so a large dataset never
   * sits in memory: each piece is a scan that starts after the last key of the one before.
   */
  private int datasetScan(PrintWriter out, long max, String from, String to)
      throws IOException {
    byte[] hi = to == null ? null : Utf8.encode(to, "--to");
    long[] n = {0};
    BufferedWriter w = new BufferedWriter(out, 1 << 16);
    try (Dataset ds = StoreLog.open(spec, store.dir, () -> Dataset.open(store.dir, null))) {
      String[] next = {from};
      boolean inclusive = true;
      boolean[] done = {false};
      while (!done[0] && n[0] < max) {
        int batch = (int) Math.min(4096, max - n[0]);
        int seen = ds.scan(next[0], inclusive, batch, r -> {
          if (hi != null && Arrays.compareUnsigned(Utf8.encode(r.key(), "key"), hi) > 0) {
            done[0] = true;
            return false;
          }
          if (!count) {
            try {
              w.write(StatsJson.MAPPER.writeValueAsString(QueryCommand.recordJson(r)));
              w.write('\n');
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          n[0]++;
          next[0] = r.key();
          return true;
        });
        if (seen < batch) {
          done[0] = true;
        }
        inclusive = false;
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (count) {
      w.write(Long.toString(n[0]));
      w.write('\n');
    }
    w.flush();
    out.flush();
    return 0;
  }

  /**
   * Stored bytes as the text this command prints; bytes that are not UTF-8 (written through the
   * Java API) fail naming the key, rather than being printed changed.
   */
  static String text(byte[] stored, String what, String key) {
    try {
      return Utf8.decode(stored, what, key);
    } catch (IllegalArgumentException e) {
      throw new StrataException(e.getMessage() + "; without --hex this command prints keys and"
          + " values as text: use --hex to print them as hex digits");
    }
  }

}
