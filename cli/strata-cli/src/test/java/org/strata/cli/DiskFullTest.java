package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.testing.LogImages;

/**
 * A full disk, in a real child process: the command prints one clear line naming the file it could
 * not write and the log file, which holds the stack trace; nothing else reaches the terminal.
 * Linux's {@code /dev/full} fails every write with ENOSPC ("No space left on device"), so a file
 * the command writes is made a symbolic link to it: here {@code config.json.tmp} of the primary
 * index of partition 0, in a dataset a crash left half-created (its directories but no {@code
 * dataset.json}); the open writes that file when it saves the index's configuration. The open's
 * own leftover-cleanup deletes the dataset's top-level temporary files first, so a link there
 * would never be written through.
 */
class DiskFullTest {
  @TempDir Path tmp;

  @Test
  void aFullDiskPrintsOneLineAndPutsTheTraceInTheLogFile() throws Exception {
    Path full = Path.of("/dev/full");
    assumeTrue(Files.exists(full), "needs Linux's /dev/full");
    Path dir = tmp.resolve("ds");
    Path failing = Files.createDirectories(dir.resolve("p0").resolve("primary"))
        .resolve("config.json.tmp");
    Files.createSymbolicLink(failing, full);
    Path records = tmp.resolve("records.jsonl");
    Files.writeString(records, "{\"key\": \"k1\", \"fields\": {\"f\": \"v\"}}\n");
    Path config = tmp.resolve("ds.json");
    Files.writeString(config, "{\"secondary-indexes\": [{\"name\": \"by_f\", \"field\": \"f\"}]}");
    Path logFile = tmp.resolve("cli.log");
    Map<String, String> before = LogImages.snapshot(dir);

    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path", System.getProperty(
        "java.class.path"));
    Process p = new ProcessBuilder(java, "-Dstrata.log.file=" + logFile, "-cp", cp,
        Main.class.getName(), "import", "--dir", dir.toString(), "--config", config.toString(),
        "--file", records.toString()).start();
    p.getOutputStream().close();
    byte[] stdout = p.getInputStream().readAllBytes();
    byte[] stderr = p.getErrorStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String err = new String(stderr, StandardCharsets.UTF_8);

    assertThat(p.exitValue()).as(err).isEqualTo(1);
    List<String> lines = err.lines().toList();
    assertThat(lines).as("stderr: %s", err).hasSize(1);
    assertThat(lines.get(0)).startsWith("error: no space left on device: ")
        .contains(failing.toString())
        .endsWith("(the full error is in " + logFile + ")");
    assertThat(new String(stdout, StandardCharsets.UTF_8)).doesNotContain("\tat ");
    String log = Files.readString(logFile);
    assertThat(log).contains("No space left on device").contains("\tat ");
    // The refused open removed what it had created, at every depth (the other index, the log,
    // the locks); the link is still there, /dev/full intact.
    assertThat(LogImages.snapshot(dir).keySet()).isEqualTo(before.keySet());
  }

  /**
   * The store's own LOG file on a full disk ({@code DIR/LOG} a link to {@code /dev/full}): every
   * write to it fails. Before, Log4j printed each failure with its stack trace (dozens of lines
   * around the one line a command prints). Now a command that succeeds says once, in one line, that
   * the LOG could not be written, and a command that fails prints its one error line only.
   */
  @Test
  void aStoreLogThatCannotBeWrittenCostsOneLineAtMost() throws Exception {
    Path full = Path.of("/dev/full");
    assumeTrue(Files.exists(full), "needs Linux's /dev/full");
    Path dir = tmp.resolve("store");
    String d = dir.toString();
    Map<String, String> env = Map.of();
    CliChild.Result put = CliChild.run(tmp.resolve("scratch"), tmp, env, List.of(),
        "strata put --dir \"$1\" k1 v1 && strata put --dir \"$1\" --hex 6b32 ff", d);
    assertThat(put.code()).as(put.err()).isZero();
    assertThat(put.err()).isEmpty();
    Files.delete(dir.resolve("LOG"));
    Files.createSymbolicLink(dir.resolve("LOG"), full);
    String warning = "warning: the store's LOG file " + dir.resolve("LOG") + " could not be"
        + " written (No space left on device): this command's messages are not in it";

    CliChild.Result write = CliChild.run(tmp.resolve("scratch"), tmp, env, List.of(),
        "strata put --dir \"$1\" k3 v3", d);
    assertThat(write.code()).as(write.err()).isZero();
    assertThat(write.errLines()).as(write.err()).containsExactly(warning);
    CliChild.Result get = CliChild.run(tmp.resolve("scratch"), tmp, env, List.of(),
        "strata get --dir \"$1\" k3", d);
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.outText()).isEqualTo("v3\n");
    // A get may log nothing (then the LOG was not missed) or what a put logs.
    assertThat(get.errLines()).as(get.err()).isSubsetOf(warning);
    // A command that fails after the store is open (k2's value is not UTF-8): its error line
    // alone, though the failure is logged to the LOG too.
    CliChild.Result scan = CliChild.run(tmp.resolve("scratch"), tmp, env, List.of(),
        "strata scan --dir \"$1\"", d);
    assertThat(scan.code()).as(scan.err()).isEqualTo(1);
    assertThat(scan.errLines()).as(scan.err()).hasSize(1);
    assertThat(scan.errLines().get(0)).startsWith("error: value of key 'k2' is not valid UTF-8");
    assertThat(Files.isSymbolicLink(dir.resolve("LOG"))).isTrue();
  }
}
