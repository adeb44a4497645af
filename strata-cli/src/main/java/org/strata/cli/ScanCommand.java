package org.strata.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import org.strata.lsm.KeyValue;
import org.strata.lsm.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StrataException;
import org.strata.lsm.Utf8;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code strata scan}: prints the live keys of a range. */
@Command(name = "scan", mixinStandardHelpOptions = true,
    description = "Print key<TAB>value for every live key with FROM <= key <= TO, in key order.")
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

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (limit != null && limit < 0) {
      throw new ParameterException(spec.commandLine(),
          "--limit must be 0 or more, got " + limit);
    }
    long max = limit == null ? Long.MAX_VALUE : limit;
    PrintWriter out = spec.commandLine().getOut();
    long n = 0;
    try (LsmStore s = store.openExisting();
        ScanCursor c = s.scan(bytes(from, "--from"), bytes(to, "--to"))) {
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
          String k = text(kv.key(), "key", null);
          w.write(k);
          w.write('\t');
          w.write(text(kv.value(), "value of key", k));
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

  private static byte[] bytes(String s, String what) {
    return s == null ? null : Utf8.encode(s, what);
  }

  /**
   * Stored bytes as the text this command prints; bytes that are not UTF-8 (written through the
   * Java API) fail naming the key, rather than being printed changed.
   */
  static String text(byte[] stored, String what, String key) {
    try {
      return Utf8.decode(stored, what, key);
    } catch (IllegalArgumentException e) {
      throw new StrataException(e.getMessage() + "; this command prints keys and values as text");
    }
  }

}
