package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;

/**
 * A real full disk: a child process ({@link FullDiskChild}) mounts a small tmpfs in a user and
 * mount namespace of its own ({@code unshare --user --map-root-user --mount}), puts a filler file
 * on it and loads a store (durability sync) until a write is refused. The refusal must say the disk
 * is full; once the filler is deleted, the store goes on or refuses writes saying what it needs (a
 * flush or a reopen). Then the child is killed with SIGKILL and a second child recovers the store
 * in the same file system, writes (into the log and memory only) and is killed too; a third
 * recovers again: no temporary or torn component is left, {@code verify} is clean, every
 * acknowledged write reads back with its value, and writes are accepted again. A copy of the
 * store's files taken when the disk filled (what a crash then leaves) is recovered too: every
 * write acknowledged until then reads back. Where namespaces or
 * tmpfs mounts are not allowed the test is skipped, saying why.
 */
class FullDiskTest {
  private static final String SIZE = "4m";
  private static final long FILLER = 1 << 20;

  @TempDir Path tmp;

  /** Whether this machine lets an unprivileged process mount a tmpfs in namespaces of its own. */
  private static String cannotMount(Path mnt) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder("unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
          "mount -t tmpfs -o size=1m tmpfs \"$0\" && echo mounted", mnt.toString())
          .redirectErrorStream(true).start();
    } catch (IOException e) {
      return "cannot run unshare: " + e.getMessage();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "unshare did not finish";
    }
    return p.exitValue() == 0 && out.endsWith("mounted") ? null
        : "unshare/mount refused (exit " + p.exitValue() + "): " + out;
  }

  @Test
  void aFullTmpfsRefusesWritesClearlyAndLosesNothingAcknowledged() throws Exception {
    Path mnt = Files.createDirectories(tmp.resolve("mnt"));
    String why = cannotMount(mnt);
    assumeTrue(why == null, "skipped: needs a tmpfs mount in a user namespace (" + why + ")");

    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    Process p = new ProcessBuilder("unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
        // The first child fills the disk and is killed; the second recovers the store, writes
        // and is killed too; the third recovers again.
        "mount -t tmpfs -o size=" + SIZE + " tmpfs \"$0\" && { \"$@\"; \"$@\" recover;"
            + " exec \"$@\" recover; }",
        mnt.toString(),
        java, "-Xmx256m", "-cp", cp, FullDiskChild.class.getName(), mnt.toString(),
        Long.toString(FILLER)).redirectError(tmp.resolve("child.err").toFile()).start();
    Child c = new Child(p, tmp.resolve("child.err"));
    try {
      long first = c.ready();
      Set<Integer> acked = new TreeSet<>();
      List<String> lines = c.command("load", "@FULL", "@NOTFULL");
      collectAcks(lines, acked);
      String full = lines.get(lines.size() - 1);
      assertThat(full).as("the load ends on a refused write").startsWith("@FULL ");
      assertThat(full).containsIgnoringCase("no space left on device");
      assertThat(acked).as("writes acknowledged before the disk filled").hasSizeGreaterThan(100);
      int attempted = acked.stream().mapToInt(i -> i).max().orElse(0) + 2;
      // A crash at the moment the disk is full: every write acknowledged so far must survive it.
      Path image = tmp.resolve("image-at-full");
      c.command("image " + image, "@IMAGED");
      Set<Integer> ackedAtFull = new TreeSet<>(acked);

      c.command("free", "@FREED");
      // Once space is freed the store goes on, or says what it needs: a flush() (a failed
      // background flush is the sticky error until a flush succeeds) or a reopen (a failed log).
      lines = c.command("write 5", "@WRITTEN");
      collectAcks(lines, acked);
      attempted += 5;
      String refusal = lines.stream().filter(l -> l.startsWith("@ERROR ")).findFirst()
          .orElse(null);
      String after;
      if (refusal == null) {
        after = "writes went on";
      } else if (refusal.contains("flush() retries it")) {
        lines = c.command("flush", "@FLUSHED", "@FLUSH-ERROR");
        if (lines.contains("@FLUSHED")) {
          lines = c.command("write 5", "@WRITTEN");
          collectAcks(lines, acked);
          attempted += 5;
          assertThat(lines).as("writes after the flush").noneMatch(l -> l.startsWith("@ERROR"));
          after = "writes went on after a flush(), as the refusal said";
        } else {
          // The disk also filled under the log: the flush says the store needs a reopen.
          assertThat(lines.get(0)).as("a flush refused after space was freed says what to do")
              .contains("until the store is reopened");
          after = "the flush the refusal asked for said the log failed: reopen (" + lines.get(0)
              + ")";
        }
      } else {
        assertThat(refusal).as("a write refused after space was freed says what to do")
            .contains("until the store is reopened");
        after = "writes were refused until reopened";
      }
      System.out.println("FullDiskTest: " + acked.size() + " writes acknowledged; the disk"
          + " filled with: " + full + "; after freeing space " + after + ": " + refusal);

      // A crash on the full disk: SIGKILL, then a new process recovers what the first left.
      kill(first);
      long second = c.ready();
      assertThat(second).as("the recovering child").isNotEqualTo(first);
      // Writes only in the log and the memory component, then a second crash: the recovery
      // after it must replay them from the log.
      lines = c.command("write 20 " + attempted, "@WRITTEN");
      assertThat(lines).as("writes after the first recovery")
          .noneMatch(l -> l.startsWith("@ERROR"));
      collectAcks(lines, acked);
      attempted += 20;
      kill(second);
      assertThat(c.ready()).as("the child recovering the second time").isNotEqualTo(second);
      lines = c.command("verify", "@VERIFIED");
      assertThat(lines).as("verify after the reopen").contains("@VERIFIED true")
          .noneMatch(l -> l.startsWith("@FAULT"))
          .noneMatch(l -> l.startsWith("@FILE") && l.endsWith(".tmp"));
      lines = c.command("check " + attempted, "@CHECKED");
      List<String> lost = new ArrayList<>();
      for (String l : lines) {
        if (l.startsWith("@VAL ")) {
          String[] f = l.split(" ");
          int i = Integer.parseInt(f[1]);
          assertThat(f[2]).as("key %d never holds a wrong value", i).isNotEqualTo("wrong");
          if (acked.contains(i) && !f[2].equals("ok")) {
            lost.add(l);
          }
        }
      }
      assertThat(lost).as("acknowledged writes lost (%d acknowledged)", acked.size()).isEmpty();

      lines = c.command("write 5 " + attempted, "@WRITTEN");
      assertThat(lines).as("writes after the recovery").noneMatch(l -> l.startsWith("@ERROR"))
          .filteredOn(l -> l.startsWith("@ACK")).hasSize(5);
      c.command("exit", "@BYE");
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();

      // The crash image taken when the disk was full, recovered here (on a disk with room).
      List<Integer> lostAtFull = new ArrayList<>();
      try (LsmStore s = LsmStore.open(image, null)) {
        for (int i : ackedAtFull) {
          Optional<byte[]> v = s.get(FullDiskChild.key(i).getBytes(StandardCharsets.UTF_8));
          if (v.isEmpty() || !new String(v.get(), StandardCharsets.UTF_8)
              .equals(FullDiskChild.value(i))) {
            lostAtFull.add(i);
          }
        }
      }
      assertThat(lostAtFull).as("acknowledged writes lost by a crash at the full disk (%d"
          + " acknowledged)", ackedAtFull.size()).isEmpty();
    } finally {
      p.destroyForcibly();
    }
  }

  /**
   * The command line on a real full disk (a 2 MiB tmpfs of its own, filled after a store was put
   * on it): a command that fails prints exactly one line, {@code error: no space left on device:
   * ...}, and one that succeeds prints at most one line on standard error, saying that the store's
   * LOG file could not be written. Before, the store's LOG appender printed Log4j's stack trace for
   * every message it could not write: 77 to 169 lines around the error line.
   */
  @Test
  void theCommandLineOnAFullDiskPrintsOneLine() throws Exception {
    Path mnt = Files.createDirectories(tmp.resolve("mnt"));
    String why = cannotMount(mnt);
    assumeTrue(why == null, "skipped: needs a tmpfs mount in a user namespace (" + why + ")");
    Path out = Files.createDirectories(tmp.resolve("out"));
    List<List<String>> commands = List.of(
        List.of("put", "--dir", "$M/s", "k2", "value-2"),
        List.of("delete", "--dir", "$M/s", "k"),
        List.of("load", "--dir", "$M/s", "--records", "1000", "--quiet"),
        List.of("load", "--dir", "$M/new", "--records", "1000", "--quiet"),
        List.of("get", "--dir", "$M/s", "k"),
        List.of("scan", "--dir", "$M/s"),
        List.of("stats", "--dir", "$M/s"),
        List.of("verify", "--dir", "$M/s"));
    StringBuilder script = new StringBuilder("M=\"$1\"; O=\"$2\"\n"
        + "mount -t tmpfs -o size=2m tmpfs \"$M\" || exit 90\n"
        + "strata put --dir \"$M/s\" k v || exit 91\n"
        + "head -c 100000000 /dev/zero > \"$M/filler\" 2>/dev/null\n");
    for (int i = 0; i < commands.size(); i++) {
      script.append("strata");
      for (String w : commands.get(i)) {
        script.append(' ').append(w.startsWith("$M") ? "\"" + w + "\"" : w);
      }
      script.append(" >\"$O/").append(i).append(".out\" 2>\"$O/").append(i)
          .append(".err\"; echo $? >\"$O/").append(i).append(".rc\"\n");
    }
    CliChild.Result r = CliChild.run(tmp.resolve("scratch"), tmp, java.util.Map.of(),
        List.of("unshare", "--user", "--map-root-user", "--mount"), script.toString(),
        mnt.toString(), out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String warning = "warning: the store's LOG file " + mnt.resolve("s").resolve("LOG")
        + " could not be written (No space left on device): this command's messages are not in"
        + " it";
    int failed = 0;
    for (int i = 0; i < commands.size(); i++) {
      String c = String.join(" ", commands.get(i));
      int code = Integer.parseInt(Files.readString(out.resolve(i + ".rc")).trim());
      List<String> err = Files.readString(out.resolve(i + ".err")).lines().toList();
      System.out.println("FullDiskTest: strata " + c + ": exit " + code + ", " + err);
      if (code == 0) {
        assertThat(err).as(c).isSubsetOf(warning);
      } else {
        failed++;
        assertThat(code).as(c + ": " + err).isEqualTo(1);
        assertThat(err).as(c).hasSize(1);
        assertThat(err.get(0)).as(c).startsWith("error: no space left on device: ");
      }
    }
    assertThat(failed).as("commands that write failed").isGreaterThanOrEqualTo(3);
  }

  /**
   * Under group commit a write is acknowledged before the log forces it, so when the disk fills,
   * writes acknowledged since the last group commit are only in the log's buffer. The failed group
   * commit must keep them (once it dropped them: 306 of 11,621 acknowledged feed lines were missing
   * after a clean stop), refuse later writes, and write them at the clean stop once there is room.
   */
  @Test
  void underGroupCommitEveryAcknowledgedWriteSurvivesAFullDiskAndACleanStop() throws Exception {
    Path mnt = Files.createDirectories(tmp.resolve("mnt"));
    String why = cannotMount(mnt);
    assumeTrue(why == null, "skipped: needs a tmpfs mount in a user namespace (" + why + ")");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    Process p = new ProcessBuilder("unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
        // The first child fills the disk, frees it and stops cleanly; the second recovers.
        "mount -t tmpfs -o size=" + SIZE + " tmpfs \"$0\" && { \"$@\" group;"
            + " exec \"$@\" recover; }",
        mnt.toString(),
        java, "-Xmx256m", "-cp", cp, FullDiskChild.class.getName(), mnt.toString(),
        Long.toString(FILLER)).redirectError(tmp.resolve("child.err").toFile()).start();
    Child c = new Child(p, tmp.resolve("child.err"));
    try {
      c.ready();
      Set<Integer> acked = new TreeSet<>();
      List<String> lines = c.command("load", "@FULL", "@NOTFULL");
      collectAcks(lines, acked);
      String full = lines.get(lines.size() - 1);
      assertThat(full).as("the load ends on a refused write").startsWith("@FULL ");
      assertThat(full).containsIgnoringCase("no space left on device");
      int attempted = acked.stream().mapToInt(i -> i).max().orElse(0) + 2;
      lines = c.command("write 20", "@WRITTEN");
      collectAcks(lines, acked);
      assertThat(lines).as("writes are refused while the log cannot write")
          .anyMatch(l -> l.startsWith("@ERROR"));
      c.command("free", "@FREED");
      c.command("exit", "@BYE"); // the clean stop: every acknowledged write made durable
      c.ready();
      lines = c.command("check " + (attempted + 20), "@CHECKED");
      List<String> lost = new ArrayList<>();
      for (String l : lines) {
        if (l.startsWith("@VAL ")) {
          String[] f = l.split(" ");
          int i = Integer.parseInt(f[1]);
          assertThat(f[2]).as("key %d never holds a wrong value", i).isNotEqualTo("wrong");
          if (acked.contains(i) && !f[2].equals("ok")) {
            lost.add(l);
          }
        }
      }
      System.out.println("FullDiskTest (group): " + acked.size() + " writes acknowledged, "
          + lost.size() + " lost after the clean stop; the disk filled with: " + full);
      assertThat(lost).as("acknowledged writes lost (%d acknowledged)", acked.size()).isEmpty();
      lines = c.command("verify", "@VERIFIED");
      assertThat(lines).contains("@VERIFIED true");
      c.command("exit", "@BYE");
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
  }

  /** Kills process {@code pid} with SIGKILL and waits until it is gone. */
  private static void kill(long pid) throws Exception {
    ProcessHandle h = ProcessHandle.of(pid).orElseThrow();
    assertThat(h.destroyForcibly()).isTrue();
    h.onExit().get(60, TimeUnit.SECONDS);
  }

  private static void collectAcks(List<String> lines, Set<Integer> acked) {
    for (String l : lines) {
      if (l.startsWith("@ACK ")) {
        acked.add(Integer.parseInt(l.substring(5)));
      }
    }
  }

  /** The child's protocol: commands in, {@code @} lines out (other lines are its log). */
  private static final class Child {
    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;
    private final Path stderr;

    Child(Process process, Path stderr) {
      this.process = process;
      this.stderr = stderr;
      this.out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8));
      this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** Waits for a child's {@code @READY <pid>} and returns the pid. */
    long ready() throws IOException {
      List<String> lines = command(null, "@READY ");
      return Long.parseLong(lines.get(lines.size() - 1).substring("@READY ".length()));
    }

    /** Sends {@code cmd} (unless null) and returns its lines up to one starting with an end. */
    List<String> command(String cmd, String... ends) throws IOException {
      if (cmd != null) {
        in.println(cmd);
      }
      List<String> lines = new ArrayList<>();
      for (String l; (l = out.readLine()) != null; ) {
        if (!l.startsWith("@")) {
          continue;
        }
        lines.add(l);
        for (String e : ends) {
          if (l.startsWith(e)) {
            return lines;
          }
        }
      }
      throw new AssertionError("the child ended (exit " + waitExit() + ") before answering "
          + cmd + "; its lines: " + lines + "; its standard error: " + errorTail());
    }

    private String errorTail() {
      try {
        String e = Files.readString(stderr);
        return e.length() > 4000 ? e.substring(e.length() - 4000) : e;
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    }

    private String waitExit() {
      try {
        return process.waitFor(10, TimeUnit.SECONDS) ? Integer.toString(process.exitValue())
            : "none";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "interrupted";
      }
    }
  }
}
