package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The install into a server distribution, on homes laid out as AsterixDB 0.9.8's (the launch
 * scripts' last lines, the sample configuration), and on wrong and partial ones: each refusal is
 * one line naming the file and leaves every file as it was. {@code DistributionIT} runs it on the
 * real distribution.
 */
class DistributionInstallTest {
  @TempDir Path tmp;

  private static final String CONF = "[nc/asterix_nc1]\niodevices=data/red\n\n[nc]\n"
      + "address=127.0.0.1\ncommand=asterixnc\n\n[cc]\naddress = 127.0.0.1\n";

  private Path home() throws IOException {
    Path h = tmp.resolve("apache-asterixdb-0.9.8");
    Files.createDirectories(h.resolve("bin"));
    Files.createDirectories(h.resolve("repo"));
    Files.createDirectories(h.resolve("opt/local/conf"));
    Files.createDirectories(h.resolve("opt/local/bin"));
    Files.writeString(h.resolve("repo/asterix-app-0.9.8.jar"), "jar");
    Files.writeString(h.resolve("bin/asterixcc"), "#!/bin/sh\nexec java \\\n"
        + "  org.apache.hyracks.control.cc.CCDriver \\\n"
        + "  -app-class org.apache.asterix.hyracks.bootstrap.CCApplication \"$@\"\n");
    Files.writeString(h.resolve("bin/asterixnc"), "#!/bin/sh\nexec java \\\n"
        + "  org.apache.hyracks.control.nc.NCDriver \\\n"
        + "  -app-class org.apache.asterix.hyracks.bootstrap.NCApplication \"$@\"\n");
    Files.writeString(h.resolve("opt/local/bin/start-sample-cluster.sh"),
        "\"$INSTALLDIR/bin/asterixncservice\" &\n"
            + "\"$INSTALLDIR/bin/asterixcc\" -config-file \"$CLUSTERDIR/conf/cc.conf\" &\n");
    Files.writeString(h.resolve("opt/local/conf/cc.conf"), CONF);
    return h;
  }

  private List<Path> jars(String... names) throws IOException {
    Path d = Files.createDirectories(tmp.resolve("build"));
    List<Path> out = new java.util.ArrayList<>();
    for (String n : names) {
      Path j = d.resolve(n);
      Files.writeString(j, "classes of " + n);
      out.add(j);
    }
    return out;
  }

  /** Every file under {@code dir} with its content, to see that nothing changed. */
  private static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          m.put(dir.relativize(p).toString(), Files.readString(p, StandardCharsets.UTF_8));
        }
      }
    }
    return m;
  }

  @Test
  void installsJarsScriptsAndConfigurationAndASecondInstallChangesNothing() throws Exception {
    Path h = home();
    List<Path> jars = jars("asterixdb-extension.jar", "lsm-core-1.jar");
    List<String> first = new DistributionInstall(h, null, jars).install();
    assertThat(first).contains("repo/: 2 of Strata's 2 jars copied",
        "bin/strata-asterixcc: written", "bin/strata-asterixnc: written",
        "opt/local/bin/start-strata-sample-cluster.sh: written",
        "opt/local/conf/cc.conf: written");
    assertThat(Files.readString(h.resolve("repo/lsm-core-1.jar"))).isEqualTo("classes of "
        + "lsm-core-1.jar");
    assertThat(Files.readString(h.resolve("bin/strata-asterixnc")))
        .contains("-app-class org.strata.asterixdb.StrataNCApplication \"$@\"")
        .doesNotContain("bootstrap.NCApplication");
    assertThat(Files.readString(h.resolve("bin/strata-asterixcc")))
        .contains("-app-class org.strata.asterixdb.StrataCCApplication \"$@\"");
    assertThat(Files.isExecutable(h.resolve("bin/strata-asterixnc"))).isTrue();
    assertThat(Files.readString(h.resolve("opt/local/bin/start-strata-sample-cluster.sh")))
        .contains("\"$INSTALLDIR/bin/strata-asterixcc\" -config-file");
    String conf = Files.readString(h.resolve("opt/local/conf/cc.conf"));
    assertThat(conf).contains("[nc]\naddress=127.0.0.1\ncommand=strata-asterixnc\n")
        .doesNotContain("command=asterixnc")
        .endsWith("[extension/org.strata.asterixdb.StrataExtension]\nenabled=true\n");
    assertThat(Files.readString(h.resolve("opt/local/conf/cc.conf.before-strata")))
        .isEqualTo(CONF);

    Map<String, String> after = snapshot(h);
    List<String> second = new DistributionInstall(h, null, jars).install();
    assertThat(second).allMatch(l -> l.contains("already"));
    assertThat(snapshot(h)).isEqualTo(after);
  }

  @Test
  void aNewBuildReplacesTheJarsOfTheLastInstall() throws Exception {
    Path h = home();
    new DistributionInstall(h, null, jars("lsm-core-1.jar", "lsm-policies-1.jar")).install();
    Files.writeString(h.resolve("repo/user-udf.jar"), "the user's");
    List<String> out = new DistributionInstall(h, null,
        jars("lsm-core-2.jar", "lsm-policies-1.jar")).install();
    assertThat(out.get(0)).isEqualTo(
        "repo/: 1 of Strata's 2 jars copied, 1 from an earlier install removed");
    assertThat(h.resolve("repo/lsm-core-1.jar")).doesNotExist();
    assertThat(h.resolve("repo/lsm-core-2.jar")).exists();
    assertThat(h.resolve("repo/user-udf.jar")).as("jars Strata did not put there stay").exists();
  }

  @Test
  void anNcSectionWithoutACommandGetsOne() throws Exception {
    Path h = home();
    Files.writeString(h.resolve("opt/local/conf/cc.conf"), "[nc]\naddress=127.0.0.1\n");
    new DistributionInstall(h, null, jars("a.jar")).install();
    assertThat(Files.readString(h.resolve("opt/local/conf/cc.conf")))
        .startsWith("[nc]\ncommand=strata-asterixnc\naddress=127.0.0.1\n");
  }

  @Test
  void wrongOrPartialHomesAreRefusedNamingTheFileAndNothingIsWritten() throws Exception {
    List<Path> jars = jars("a.jar");
    assertThatThrownBy(() -> new DistributionInstall(tmp.resolve("none"), null, jars).install())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a directory");

    Path h = home();
    Files.move(h.resolve("repo/asterix-app-0.9.8.jar"), h.resolve("repo/asterix-app-0.9.7.jar"));
    Map<String, String> before = snapshot(h);
    assertThatThrownBy(() -> new DistributionInstall(h, null, jars).install())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("asterix-app-0.9.8.jar is missing")
        .hasMessageContaining("it holds asterix-app-0.9.7.jar");
    assertThat(snapshot(h)).isEqualTo(before);
    Files.move(h.resolve("repo/asterix-app-0.9.7.jar"), h.resolve("repo/asterix-app-0.9.8.jar"));

    Files.delete(h.resolve("bin/asterixnc"));
    before = snapshot(h);
    assertThatThrownBy(() -> new DistributionInstall(h, null, jars).install())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bin/asterixnc is"
            + " missing");
    assertThat(snapshot(h)).isEqualTo(before);
  }

  @Test
  void aScriptThatDoesNotNameAsterixDbsApplicationIsNotCopied() throws Exception {
    Path h = home();
    Files.writeString(h.resolve("bin/asterixcc"), "#!/bin/sh\nexec java my.OwnDriver \"$@\"\n");
    Map<String, String> before = snapshot(h);
    assertThatThrownBy(() -> new DistributionInstall(h, null, jars("a.jar")).install())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bin/asterixcc does not name "
            + "org.apache.asterix.hyracks.bootstrap.CCApplication once");
    assertThat(snapshot(h)).isEqualTo(before);
  }

  @Test
  void aConfigurationWithoutAnNcSectionOrMissingIsRefused() throws Exception {
    Path h = home();
    Files.writeString(h.resolve("opt/local/conf/cc.conf"), "[cc]\naddress = 127.0.0.1\n");
    Map<String, String> before = snapshot(h);
    assertThatThrownBy(() -> new DistributionInstall(h, null, jars("a.jar")).install())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no [nc] section");
    assertThat(snapshot(h)).isEqualTo(before);
    assertThatThrownBy(() -> new DistributionInstall(h, tmp.resolve("other.conf"),
        jars("a.jar")).install())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other.conf not found");
    assertThat(snapshot(h)).isEqualTo(before);
  }
}
