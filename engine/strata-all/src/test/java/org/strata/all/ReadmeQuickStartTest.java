package org.strata.all;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's library quick start, as it is: the Java block after {@code <!-- quick-start -->} is
 * compiled against exactly the runtime class path a project depending on {@code strata-all} gets
 * (written by the dependency plugin), and run in a child JVM. With {@code lsm-core} alone, opening
 * a store fails naming the artifact to add.
 */
class ReadmeQuickStartTest {
  private static Path classes;
  private static List<String> runtime;

  @TempDir Path tmp;

  /** The Java block after README's {@code <!-- quick-start -->}, as it is. */
  static String readmeBlock() throws IOException {
    String readme = Files.readString(Path.of(System.getProperty("strata.readme")));
    int marker = readme.indexOf("<!-- quick-start -->");
    assertThat(marker).as("README.md marks its quick start with <!-- quick-start -->")
        .isNotNegative();
    int start = readme.indexOf("```java\n", marker) + "```java\n".length();
    int end = readme.indexOf("```", start);
    return readme.substring(start, end);
  }

  @BeforeAll
  static void compileTheReadmeBlock() throws IOException {
    String source = readmeBlock();
    assertThat(source).contains("public class QuickStart");
    Path work = Path.of(System.getProperty("strata.work"));
    Path src = work.resolve("src");
    classes = work.resolve("classes");
    Files.createDirectories(src);
    Files.createDirectories(classes);
    Path file = src.resolve("QuickStart.java");
    Files.writeString(file, source);
    runtime = Arrays.stream(Files.readString(Path.of(System.getProperty(
        "strata.runtime.classpath"))).trim().split(File.pathSeparator))
        .filter(s -> !s.isBlank()).toList();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-classpath", String.join(File.pathSeparator, runtime),
        "-d", classes.toString(), file.toString());
    assertThat(rc).as("the README's quick start compiles against strata-all alone").isZero();
  }

  private record Run(int code, String out, String err) {}

  private Run run(List<String> classPath) throws Exception {
    List<String> cp = new ArrayList<>();
    cp.add(classes.toString());
    cp.addAll(classPath);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(java.toString(), "-cp", String.join(File.pathSeparator, cp),
        "QuickStart", tmp.resolve("store").toString())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the quick start did not finish in two minutes");
    }
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void runsAgainstStrataAllAndLogsNoComplaint() throws Exception {
    Run r = run(runtime);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("user1 = {\"name\": \"Ada\"}\n"
        + "user1 -> {\"name\": \"Ada\"}\n"
        + "user2 -> {\"name\": \"Grace\"}\n");
    assertThat(r.err()).as("no complaint from Log4j or anything else").isEmpty();
    assertThat(tmp.resolve("store")).isDirectory();
  }

  @Test
  void withLsmCoreAloneOpeningFailsNamingTheArtifactToAdd() throws Exception {
    List<String> coreOnly = runtime.stream()
        .filter(e -> !e.contains("lsm-policies") && !e.contains("lsm-scheduler"))
        .collect(Collectors.toList());
    assertThat(coreOnly).hasSizeLessThan(runtime.size());
    Run r = run(coreOnly);
    assertThat(r.code()).isNotZero();
    assertThat(r.err()).contains("no merge policy jar is on the class path")
        .contains("org.strata:lsm-policies").contains("org.strata:strata-all");
  }
}
