package org.strata.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.strata.lsm.KeyValue;
import org.strata.lsm.LsmStore;
import org.strata.lsm.ScanCursor;
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

  @Option(names = "--limit", paramLabel = "N", description = "Print at most N entries.")
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
    try (LsmStore s = store.open();
        ScanCursor c = s.scan(bytes(from), bytes(to))) {
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
          w.write(new String(kv.key(), StandardCharsets.UTF_8));
          w.write('\t');
          w.write(new String(kv.value(), StandardCharsets.UTF_8));
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

  private static byte[] bytes(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

}
