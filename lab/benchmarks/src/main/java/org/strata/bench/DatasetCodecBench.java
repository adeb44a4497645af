package org.strata.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.strata.lsm.Utf8;
import org.strata.lsm.dataset.RecordCodec;
import org.strata.lsm.dataset.SecondaryKey;

/**
 * The dataset codecs on records shaped like the two-phase runner's: 10 fields ({@code field0} ..
 * {@code field9}) of 100 random letters, except {@code field1} and {@code field2}, 12-digit numbers
 * (the secondary-key fields); 905 bytes encoded. {@link RecordCodec} encodes a record (given
 * in field order, as a feed delivers it) into the primary index's value and decodes it back;
 * {@link SecondaryKey} builds the entry key of a secondary index from a {@code field1} value and
 * the 16-byte primary key.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class DatasetCodecBench {
  static final int FIELDS = 10;
  static final int FIELD_LENGTH = 100;
  static final int RECORDS = 1 << 10;

  private List<Map<String, String>> records;
  private byte[][] encoded;
  private String[] secondaryValues;
  private byte[][] primaryKeys;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(11);
    records = new ArrayList<>(RECORDS);
    encoded = new byte[RECORDS][];
    secondaryValues = new String[RECORDS];
    primaryKeys = new byte[RECORDS][];
    for (int i = 0; i < RECORDS; i++) {
      Map<String, String> record = BenchData.record(FIELDS, FIELD_LENGTH, r);
      records.add(record);
      encoded[i] = RecordCodec.encode(record);
      if (!RecordCodec.decode(encoded[i]).equals(record)) {
        throw new IllegalStateException("a record does not decode to its fields");
      }
      secondaryValues[i] = record.get("field1");
      primaryKeys[i] = ("user" + BenchData.twelveDigits(r.nextLong(1_000_000_000_000L)))
          .getBytes(StandardCharsets.US_ASCII);
    }
  }

  private int advance() {
    int i = next;
    next = (next + 1) & (RECORDS - 1);
    return i;
  }

  /** Encodes one 10-field record into the primary index's value bytes. */
  @Benchmark
  public byte[] encodeRecord() {
    return RecordCodec.encode(records.get(advance()));
  }

  /** Decodes one record's value bytes into its fields. */
  @Benchmark
  public Map<String, String> decodeRecord() {
    return RecordCodec.decode(encoded[advance()]);
  }

  /**
   * Encodes one secondary-index entry key as a write does: the field value's strict UTF-8 bytes,
   * escaped, the terminator, the primary key.
   */
  @Benchmark
  public byte[] encodeSecondaryKey() {
    int i = advance();
    return SecondaryKey.encode(Utf8.encode(secondaryValues[i], "value of field", "field1"),
        primaryKeys[i]);
  }
}
