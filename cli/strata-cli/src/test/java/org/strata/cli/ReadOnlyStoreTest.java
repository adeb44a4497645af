package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store or dataset on a read-only file system, in real child processes: a read-only bind mount
 * of its directory in a user and mount namespace of the child's own ({@code unshare --user
 * --map-root-user --mount}; skipped, saying why, where that is not allowed). Every command but
 * {@code verify} writes there (LOCK, the log, LOG), so each fails; before, the store's LOG file
 * that could not be created printed a 28-line Log4j trace and the command failed with
 * "ManagerFactory ... unable to create manager". Now each prints exactly one line, naming the file
 * it could not write and saying why; {@code verify} still reads the store.
 */
class ReadOnlyStoreTest {
  @TempDir Path tmp;

  private static final List<String> NAMESPACE = List.of("unshare", "--user", "--map-root-user",
      "--mount");

  /** Binds $1 onto itself read-only, then runs the rest; exit 90 if the mount is refused. */
  private static final String READ_ONLY = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro"
      + " \"$1\" || exit 90\n";

  /** Runs {@code strata C --dir DIR ARGS} with DIR read-only: exit 1 and one error line. */
  private void oneLine(Path dir, List<String> command) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of(dir.toString()));
    args.addAll(command);
    CliChild.Result r = CliChild.run(tmp.resolve("scratch"), tmp, Map.of(), NAMESPACE,
        READ_ONLY + "d=\"$1\"; c=\"$2\"; shift 2; strata \"$c\" --dir \"$d\" \"$@\"",
        args.toArray(String[]::new));
    assertThat(r.code()).as(command + ": " + r.err()).isEqualTo(1);
    assertThat(r.errLines()).as(command + ": " + r.err()).hasSize(1);
    assertThat(r.errLines().get(0)).as(command.toString())
        .startsWith("error: cannot write " + dir + "/")
        .contains(": read-only file system; every command but verify writes in a store or"
            + " dataset directory");
  }

  @Test
  void everyCommandOnAReadOnlyStoreFailsWithOneLine() throws Exception {
    Path dir = tmp.resolve("store");
    String d = dir.toString();
    Path records = tmp.resolve("records.jsonl");
    Files.writeString(records, "{\"key\": \"k1\", \"fields\": {\"f\": \"v\"}}\n");
    Path config = tmp.resolve("ds.json");
    Files.writeString(config, "{\"secondary-indexes\": [{\"name\": \"by_f\", \"field\": \"f\"}]}");
    Path ds = tmp.resolve("ds");
    CliChild.Result made = CliChild.run(tmp.resolve("scratch"), tmp, Map.of(), List.of(),
        "strata put --dir \"$1\" k v && strata import --dir \"$2\" --config \"$3\" --file \"$4\"",
        d, ds.toString(), config.toString(), records.toString());
    assertThat(made.code()).as(made.err()).isZero();
    CliChild.Result probe = CliChild.run(tmp.resolve("scratch"), tmp, Map.of(), NAMESPACE,
        READ_ONLY + "touch \"$1/probe\" 2>/dev/null && exit 91; exit 0", d);
    assumeTrue(probe.code() == 0, "skipped: needs a read-only bind mount in a user namespace"
        + " (exit " + probe.code() + ": " + probe.err().trim() + ")");

    List<List<String>> commands = List.of(List.of("get", "k"), List.of("put", "k2", "v2"),
        List.of("delete", "k"), List.of("scan"), List.of("stats"),
        List.of("load", "--records", "10"), List.of("readbench", "--records", "1"));
    for (List<String> c : commands) {
      oneLine(dir, c);
    }
    for (List<String> c : List.of(List.of("get", "k1"), List.of("scan"),
        List.of("query", "--index", "by_f", "--eq", "v"),
        List.of("import", "--file", records.toString()))) {
      oneLine(ds, c);
    }
    CliChild.Result verify = CliChild.run(tmp.resolve("scratch"), tmp, Map.of(), NAMESPACE,
        READ_ONLY + "strata verify --dir \"$1\"", d);
    assertThat(verify.code()).as(verify.err()).isZero();
    assertThat(verify.err()).isEmpty();
  }
}
