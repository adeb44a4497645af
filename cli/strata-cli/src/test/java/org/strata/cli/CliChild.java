package org.strata.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The command line in a real child process, started by {@code /bin/sh -c SCRIPT}: a script can
 * give it arguments a Java string cannot carry (raw bytes from {@code printf '\377'}), run it under
 * another locale, or in namespaces of its own. In the script, {@code strata ARGS} runs {@link Main}
 * with this module's class path (a shell function); its exit code is the script's. Standard output
 * and error go to files, so a chatty child never blocks on a full pipe; every wait is bounded and
 * the child and its descendants are killed by pid when the run ends.
 */
final class CliChild {
  private CliChild() {}

  /** What a child printed, and its exit code. */
  record Result(int code, byte[] out, String err) {
    String outText() {
      return new String(out, StandardCharsets.UTF_8);
    }

    /** Standard error, line by line. */
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  /** The shell function {@code strata} that scripts call, over this JVM and class path. */
  static final String FUNCTION = "strata() { \"$STRATA_JAVA\" -Xmx256m -XX:TieredStopAtLevel=1"
      + " -Dstrata.log.file=\"$STRATA_LOG\" -cp \"$STRATA_CP\" org.strata.cli.Main \"$@\"; }\n";

  /**
   * Runs {@code script} under {@code /bin/sh -c} with {@code args} as {@code $1 ..}, in {@code
   * cwd}, with {@code env} added to (a null value: removed from) this process's environment.
   * {@code prefix} (may be empty) comes before {@code /bin/sh}, e.g. {@code unshare ...}.
   */
  static Result run(Path scratch, Path cwd, Map<String, String> env, List<String> prefix,
      String script, String... args) throws IOException, InterruptedException {
    Files.createDirectories(scratch);
    Path out = Files.createTempFile(scratch, "out", ".txt");
    Path err = Files.createTempFile(scratch, "err", ".txt");
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add("/bin/sh");
    cmd.add("-c");
    cmd.add(FUNCTION + script);
    cmd.add("sh");
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    Map<String, String> e = pb.environment();
    e.put("STRATA_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    e.put("STRATA_CP", System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path")));
    e.put("STRATA_LOG", scratch.resolve("cli.log").toString());
    e.remove("STRATA_DEBUG");
    env.forEach((k, v) -> {
      if (v == null) {
        e.remove(k);
      } else {
        e.put(k, v);
      }
    });
    Process p = pb.start();
    try {
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        throw new AssertionError("the child did not finish in 3 minutes: " + script);
      }
      return new Result(p.exitValue(), Files.readAllBytes(out),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** A locale of this machine whose charset is UTF-8 ({@code C.UTF-8} if there is one), or null. */
  static String utf8Locale() throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder("locale", "-a").redirectErrorStream(true).start();
    } catch (IOException e) {
      return null;
    }
    List<String> all;
    try {
      all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
          .map(String::trim).toList();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        return null;
      }
    } finally {
      p.destroyForcibly();
    }
    for (String l : all) {
      if (l.equalsIgnoreCase("C.UTF-8") || l.equalsIgnoreCase("C.utf8")) {
        return l;
      }
    }
    for (String l : all) {
      if (l.toLowerCase(java.util.Locale.ROOT).matches(".*\\.utf-?8")) {
        return l;
      }
    }
    return null;
  }

  /** The environment that makes a child's locale {@code locale} (every LC_ variable cleared). */
  static Map<String, String> locale(String locale) {
    Map<String, String> m = new java.util.HashMap<>();
    for (String k : System.getenv().keySet()) {
      if (k.startsWith("LC_") || k.equals("LANG") || k.equals("LANGUAGE")) {
        m.put(k, null);
      }
    }
    m.put("LC_ALL", locale);
    return m;
  }
}
