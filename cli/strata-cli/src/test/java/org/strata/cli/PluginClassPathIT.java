package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/strata} over the packaged jars takes plug-ins from {@code STRATA_CLASSPATH}: a merge
 * policy that only this module's test classes hold ({@code test-two-merges}, registered in their
 * {@code META-INF/services}) is unknown without it and found with it.
 */
class PluginClassPathIT {
  @TempDir Path tmp;

  private record Run(int code, String output) {}

  private Run strata(String classPath, String... args) throws Exception {
    Path bin = Path.of(System.getProperty("user.dir")).resolve("..").resolve("..").resolve("bin")
        .resolve("strata").normalize();
    ProcessBuilder pb = new ProcessBuilder(
        java.util.stream.Stream.concat(java.util.stream.Stream.of(bin.toString()),
            java.util.Arrays.stream(args)).toList()).redirectErrorStream(true);
    pb.environment().put("STRATA_JAVA_OPTS", "-Xmx256m");
    if (classPath == null) {
      pb.environment().remove("STRATA_CLASSPATH");
    } else {
      pb.environment().put("STRATA_CLASSPATH", classPath);
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    return new Run(p.exitValue(), out);
  }

  @Test
  void aPolicyOnStrataClassPathIsFound() throws Exception {
    Path config = tmp.resolve("plugin.json");
    Files.writeString(config, "{\"merge-policy\": {\"name\": \"test-two-merges\"}}");
    Path testClasses = Path.of(System.getProperty("user.dir"), "target", "test-classes");
    Run without = strata(null, "put", "--dir", tmp.resolve("a").toString(), "--config",
        config.toString(), "k", "v");
    assertThat(without.code()).as(without.output()).isEqualTo(2);
    assertThat(without.output()).contains("test-two-merges");
    Run with = strata(testClasses.toString(), "put", "--dir", tmp.resolve("b").toString(),
        "--config", config.toString(), "k", "v");
    assertThat(with.code()).as(with.output()).isZero();
    assertThat(strata(testClasses.toString(), "get", "--dir", tmp.resolve("b").toString(), "k")
        .output().trim()).isEqualTo("v");
    assertThat(tmp.resolve("a")).as("a refused open creates nothing").doesNotExist();
  }
}
