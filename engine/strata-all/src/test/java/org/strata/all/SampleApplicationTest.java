package org.strata.all;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.testing.LogImages;

/**
 * The sample application {@code examples/app}, built by the system's own Maven (any 3.x, such as
 * Debian's 3.8.7) exactly as its pom says, and run: it prints what README's quick start prints.
 * The build gets this build's Strata artifacts from a repository of its own (laid out here from
 * the modules' jars and poms, as {@code install} would) and everything else from the local Maven
 * repository this build uses, so it needs no network. Skipped, saying so, where no {@code mvn} is
 * on the PATH ({@code apt-get install maven}).
 */
class SampleApplicationTest {
  private static final String VERSION = "0.1.0-SNAPSHOT";
  private static final Path ROOT = Path.of(System.getProperty("strata.readme")).getParent();

  @TempDir Path tmp;

  private static Path onPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (!dir.isEmpty() && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** Puts {@code pom} (and {@code jar}, if not null) of {@code artifact} into {@code repo}. */
  private static void install(Path repo, String artifact, Path pom, Path jar) throws IOException {
    Path dir = repo.resolve("org/strata").resolve(artifact).resolve(VERSION);
    Files.createDirectories(dir);
    Files.copy(pom, dir.resolve(artifact + "-" + VERSION + ".pom"));
    if (jar != null) {
      Files.copy(jar, dir.resolve(artifact + "-" + VERSION + ".jar"));
    }
  }

  /** The jar this build made of {@code module} (its packaging has run: it comes before). */
  private static Path jarOf(String module, String artifact) {
    Path jar = ROOT.resolve(module).resolve("target").resolve(artifact + "-" + VERSION + ".jar");
    Assumptions.assumeTrue(Files.isRegularFile(jar), jar.getFileName() + " is not built; run"
        + " the whole build (./mvnw -B -ntp verify), which packages it before this test");
    return jar;
  }

  /** strata-all's jar: its one resource (it holds no code), as the jar plugin will package it. */
  private static Path strataAllJar(Path dir) throws IOException {
    Path jar = dir.resolve("strata-all.jar");
    Path resources = ROOT.resolve("engine/strata-all/src/main/resources");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(out, new Manifest());
        Stream<Path> files = Files.walk(resources)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        j.putNextEntry(new ZipEntry(resources.relativize(f).toString().replace('\\', '/')));
        j.write(Files.readAllBytes(f));
        j.closeEntry();
      }
    }
    return jar;
  }

  private static String run(List<String> command, Path dir, Path log) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    try {
      assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("%s ended in time", command).isTrue();
      String out = Files.readString(log);
      assertThat(p.exitValue()).as("%s:%n%s", command, out).isZero();
      return out;
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  @Test
  void theSampleApplicationBuildsWithTheSystemsMavenAndRuns() throws Exception {
    Path mvn = onPath("mvn");
    Assumptions.assumeTrue(mvn != null, "no system Maven on the PATH (apt-get install maven):"
        + " the sample application examples/app is not built");
    String localRepository = System.getProperty("strata.localRepository");
    Assumptions.assumeTrue(localRepository != null && Files.isDirectory(Path.of(localRepository)),
        "the build's local Maven repository is not known to this test");
    assertThat(Files.readString(ROOT.resolve("examples/app/src/main/java/QuickStart.java")))
        .as("the sample's source is README's quick start")
        .isEqualTo(ReadmeQuickStartTest.readmeBlock());

    Path repo = tmp.resolve("repository");
    install(repo, "strata-parent", ROOT.resolve("pom.xml"), null);
    install(repo, "lsm-core", ROOT.resolve("engine/lsm-core/pom.xml"),
        jarOf("engine/lsm-core", "lsm-core"));
    install(repo, "lsm-policies", ROOT.resolve("engine/lsm-policies/pom.xml"),
        jarOf("engine/lsm-policies", "lsm-policies"));
    install(repo, "lsm-scheduler", ROOT.resolve("engine/lsm-scheduler/pom.xml"),
        jarOf("engine/lsm-scheduler", "lsm-scheduler"));
    install(repo, "strata-all", ROOT.resolve("engine/strata-all/pom.xml"), strataAllJar(tmp));
    Path settings = tmp.resolve("settings.xml");
    Files.writeString(settings, "<settings><mirrors><mirror><id>build-repository</id>"
        + "<mirrorOf>*</mirrorOf><url>" + Path.of(localRepository).toUri() + "</url></mirror>"
        + "</mirrors></settings>\n");
    Path app = tmp.resolve("app");
    LogImages.copyTree(ROOT.resolve("examples/app"), app);

    run(List.of(mvn.toString(), "-B", "-q", "-s", settings.toString(),
        "-Dmaven.repo.local=" + repo, "compile", "dependency:build-classpath",
        "-Dmdep.outputFile=cp.txt"), app, tmp.resolve("mvn.log"));
    String cp = Files.readString(app.resolve("cp.txt")).trim();
    assertThat(cp).contains("lsm-core-" + VERSION + ".jar").contains("log4j-core");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String out = run(List.of(java.toString(), "-cp", app.resolve("target/classes")
        + File.pathSeparator + cp, "QuickStart", tmp.resolve("store").toString()), app,
        tmp.resolve("run.log"));
    assertThat(out).contains("user1 = {\"name\": \"Ada\"}")
        .contains("user2 -> {\"name\": \"Grace\"}");
  }
}
