package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import org.strata.twophase.RecordShape;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata gen-records}: writes YCSB-style records as import lines, in the shape of the
 * paper's modified YCSB for secondary indexes: keys {@code user<12 digits>}, fields {@code field0}
 * .. {@code field9}, where {@code field1} and {@code field2} (the secondary fields) are numbers
 * uniform over the key space and the others are random letters.
 */
@Command(name = "gen-records", mixinStandardHelpOptions = true,
    description = "Write N import lines of YCSB-style records (field0..field9; field1 and field2 "
        + "are 12-digit numbers uniform in [0, --keys), the secondary fields). --mode load "
        + "writes keys 0..N-1 in random order; --mode update writes N upserts of uniformly "
        + "random keys in [0, --keys).")
final class GenRecordsCommand implements Callable<Integer> {
  enum Mode { load, update }

  @Option(names = "--records", required = true, paramLabel = "N", description = "Lines to write.",
      converter = QuantityConverters.Count.class)
  long records;

  @Option(names = "--keys", paramLabel = "K",
      description = "Key space for updates and secondary values (default: N).")
  Long keys;

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "load",
      description = "load (each key once, random order) or update (uniform keys).")
  Mode mode;

  @Option(names = "--field-length", paramLabel = "CHARS", defaultValue = "122",
      description = "Length of the eight non-secondary fields (default 122: values total 1,000"
          + " bytes).")
  int fieldLength;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Random seed.")
  long seed;

  @Option(names = "--out", paramLabel = "FILE", description = "Output file; default stdout.")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (records < 0 || records > Integer.MAX_VALUE - 8) {
      throw new ParameterException(spec.commandLine(), "--records must be from 0 to "
          + (Integer.MAX_VALUE - 8) + ", got " + records);
    }
    long k = keys == null ? records : keys;
    if (k < 1) {
      throw new ParameterException(spec.commandLine(), "--keys must be 1 or more, got " + k);
    }
    if (fieldLength < 0 || fieldLength > 1 << 20) {
      throw new ParameterException(spec.commandLine(), "--field-length must be from 0 to "
          + (1 << 20) + ", got " + fieldLength);
    }
    Writer w = out == null
        ? new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)
        : Files.newBufferedWriter(out, StandardCharsets.UTF_8);
    try {
      long[] order = mode == Mode.load ? RecordGenerator.permutation(records, seed) : null;
      SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
      RecordShape shape = new RecordShape(10, fieldLength, k);
      StringBuilder sb = new StringBuilder(1200);
      ProgressLine progress = new ProgressLine(spec.commandLine().getErr(), "gen-records",
          "records", records, System::nanoTime);
      for (long i = 0; i < records; i++) {
        if ((i & 0xFFF) == 0) {
          progress.update(i);
        }
        long id = order != null ? order[(int) i] : rnd.nextLong(k);
        sb.setLength(0);
        sb.append("{\"op\":\"upsert\",\"key\":\"").append(RecordGenerator.key(id))
            .append("\",\"fields\":{");
        String sep = "";
        for (Map.Entry<String, String> f : shape.fields(rnd).entrySet()) {
          // letters and digits only: nothing to escape
          sb.append(sep).append('"').append(f.getKey()).append("\":\"").append(f.getValue())
              .append('"');
          sep = ",";
        }
        sb.append("}}\n");
        w.append(sb);
      }
    } finally {
      if (out == null) {
        w.flush();
      } else {
        w.close();
      }
    }
    return 0;
  }
}
