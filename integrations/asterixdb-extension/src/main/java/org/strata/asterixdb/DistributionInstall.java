package org.strata.asterixdb;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.strata.asterix.StrataMergePolicyFactory;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.engine.Plugins;
import org.strata.policy.ConcurrentMergePolicy;
import org.strata.scheduler.GreedyScheduler;

/**
 * Installs Strata into an unpacked AsterixDB 0.9.8 server distribution (the {@code
 * asterix-server-0.9.8-binary-assembly.zip} of Maven Central), the deployment that {@code strata
 * asterixdb install --home DIR} performs:
 *
 * <ol>
 *   <li>Strata's server-side jars into {@code repo/} (every jar there is on the class path of
 *       AsterixDB's launch scripts); jars a previous install put there and this one does not
 *       bring are removed ({@code repo/.strata-jars} lists them);
 *   <li>{@code bin/strata-asterixcc} and {@code bin/strata-asterixnc}: AsterixDB's {@code
 *       bin/asterixcc} and {@code bin/asterixnc} with Strata's applications as {@code
 *       -app-class}. The stock scripts name AsterixDB's applications on the command line, and
 *       the drivers take the first {@code -app-class} they see, so {@code app.class} in the
 *       configuration file cannot replace them;
 *   <li>the cluster configuration ({@code opt/local/conf/cc.conf} unless another is named): its
 *       {@code [nc]} section's {@code command} becomes {@code strata-asterixnc} (so every node
 *       service starts Strata's node application) and the extension's section is added, enabled;
 *       the file as it was is kept once as {@code FILE.before-strata};
 *   <li>{@code opt/local/bin/start-strata-sample-cluster.sh}: the sample cluster's start script
 *       starting {@code strata-asterixcc}, where that script exists.
 * </ol>
 *
 * <p>Everything is checked before anything is written: a home that is not a 0.9.8 distribution,
 * launch scripts that do not name AsterixDB's applications as 0.9.8's do, or a configuration
 * without an {@code [nc]} section is refused with one line naming the file, and nothing changes.
 * Each file is written whole under a temporary name and moved into place. A second install with
 * the same jars changes nothing.
 */
public final class DistributionInstall {
  /** The cluster controller's launch script the install adds to {@code bin/}. */
  public static final String CC_SCRIPT = "strata-asterixcc";
  /** The node controller's launch script the install adds to {@code bin/}. */
  public static final String NC_SCRIPT = "strata-asterixnc";
  /** The sample cluster's start script the install adds to {@code opt/local/bin/}. */
  public static final String SAMPLE_START = "start-strata-sample-cluster.sh";
  static final String JAR_LIST = ".strata-jars";
  private static final String VERSION_JAR = "repo/asterix-app-0.9.8.jar";
  private static final String CC_APP = "org.apache.asterix.hyracks.bootstrap.CCApplication";
  private static final String NC_APP = "org.apache.asterix.hyracks.bootstrap.NCApplication";

  private final Path home;
  private final Path conf;
  private final List<Path> jars;

  /**
   * @param home the unpacked distribution (the directory holding {@code bin/} and {@code repo/})
   * @param conf the cluster configuration to patch, or null for {@code opt/local/conf/cc.conf}
   * @param jars the jars to install ({@link #strataJars()} for this build's)
   */
  public DistributionInstall(Path home, Path conf, List<Path> jars) {
    this.home = home.toAbsolutePath().normalize();
    this.conf = conf != null ? conf.toAbsolutePath().normalize()
        : this.home.resolve("opt/local/conf/cc.conf");
    this.jars = List.copyOf(jars);
  }

  /**
   * The jars of this build that AsterixDB's processes need: the extension, the Hyracks adapter,
   * and the engine's core, policies and schedulers, each found where its classes were loaded
   * from. Their own dependencies (Jackson, Log4j, Guava) are AsterixDB's.
   */
  public static List<Path> strataJars() {
    Set<Path> out = new LinkedHashSet<>();
    for (Class<?> c : List.of(StrataExtension.class, StrataMergePolicyFactory.class,
        LsmStore.class, Plugins.class, ConcurrentMergePolicy.class, GreedyScheduler.class)) {
      try {
        Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (!Files.isRegularFile(p) || !p.toString().endsWith(".jar")) {
          throw new IllegalStateException("install needs Strata's jars, but " + c.getName()
              + " was loaded from " + p + ": build with ./mvnw -B -ntp package -DskipTests");
        }
        out.add(p);
      } catch (URISyntaxException e) {
        throw new IllegalStateException("where " + c.getName() + " was loaded from", e);
      }
    }
    return new ArrayList<>(out);
  }

  /** Installs; returns one line per step, saying what changed or that nothing had to. */
  public List<String> install() throws IOException {
    String ccScript = launchScript("bin/asterixcc", CC_APP, StrataCCApplication.class.getName());
    String ncScript = launchScript("bin/asterixnc", NC_APP, StrataNCApplication.class.getName());
    String patched = patchedConfiguration();
    String sample = sampleStart();
    for (Path j : jars) {
      if (!Files.isRegularFile(j)) {
        throw new IllegalArgumentException("jar to install not found: " + j);
      }
    }

    List<String> done = new ArrayList<>();
    done.add(installJars());
    done.add(write(home.resolve("bin").resolve(CC_SCRIPT), ccScript, true));
    done.add(write(home.resolve("bin").resolve(NC_SCRIPT), ncScript, true));
    if (sample != null) {
      done.add(write(home.resolve("opt/local/bin").resolve(SAMPLE_START), sample, true));
    }
    Path before = conf.resolveSibling(conf.getFileName() + ".before-strata");
    String current = Files.readString(conf, StandardCharsets.UTF_8);
    if (!current.equals(patched) && !Files.exists(before)) {
      Files.copy(conf, before);
    }
    done.add(write(conf, patched, false));
    return done;
  }

  /** The stock script {@code rel} with {@code app} as its application, checked first. */
  private String launchScript(String rel, String stock, String app) throws IOException {
    Path script = requireDistribution(rel);
    String text = Files.readString(script, StandardCharsets.UTF_8);
    String flag = "-app-class " + stock;
    int at = text.indexOf(flag);
    if (at < 0 || text.indexOf(flag, at + 1) >= 0) {
      throw new IllegalArgumentException(script + " does not name " + stock + " once as"
          + " AsterixDB 0.9.8's launch script does; refusing to derive Strata's from it");
    }
    return text.replace(flag, "-app-class " + app);
  }

  private Path requireDistribution(String rel) {
    if (!Files.isDirectory(home)) {
      throw new IllegalArgumentException("--home " + home + " is not a directory: give the"
          + " unpacked AsterixDB 0.9.8 server distribution (the one holding bin/ and repo/)");
    }
    Path version = home.resolve(VERSION_JAR);
    if (!Files.isRegularFile(version)) {
      throw new IllegalArgumentException(home + " is not an AsterixDB 0.9.8 server distribution: "
          + version + " is missing" + otherVersion());
    }
    Path p = home.resolve(rel);
    if (!Files.isRegularFile(p)) {
      throw new IllegalArgumentException(home + " is not a whole AsterixDB 0.9.8 server"
          + " distribution: " + p + " is missing");
    }
    return p;
  }

  private String otherVersion() {
    try (var s = Files.list(home.resolve("repo"))) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("asterix-app-") && n.endsWith(".jar")).findFirst()
          .map(n -> " (it holds " + n + "; Strata runs on 0.9.8 only)").orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  /** The configuration with Strata's node script and the extension's section. */
  private String patchedConfiguration() throws IOException {
    requireDistribution("bin/asterixnc");
    if (!Files.isRegularFile(conf)) {
      throw new IllegalArgumentException("cluster configuration " + conf + " not found: name"
          + " the cc.conf your cluster controller starts with (--conf FILE)");
    }
    List<String> lines = new ArrayList<>(Arrays.asList(
        Files.readString(conf, StandardCharsets.UTF_8).split("\n", -1)));
    int nc = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals("[nc]")) {
        nc = i;
        break;
      }
    }
    if (nc < 0) {
      throw new IllegalArgumentException(conf + " has no [nc] section: add one (AsterixDB's"
          + " sample cc.conf has [nc] with address and command) and install again");
    }
    int end = nc + 1;
    while (end < lines.size() && !lines.get(end).strip().startsWith("[")) {
      end++;
    }
    boolean set = false;
    for (int i = nc + 1; i < end; i++) {
      String l = lines.get(i).strip();
      if (l.startsWith("command") && l.substring("command".length()).strip().startsWith("=")) {
        lines.set(i, "command=" + NC_SCRIPT);
        set = true;
      }
    }
    if (!set) {
      lines.add(nc + 1, "command=" + NC_SCRIPT);
    }
    String header = "[" + StrataExtension.SECTION + "]";
    boolean hasSection = lines.stream().anyMatch(l -> l.strip().equals(header));
    String text = String.join("\n", lines);
    if (!hasSection) {
      text = (text.endsWith("\n") ? text : text + "\n") + "\n" + header + "\nenabled=true\n";
    }
    return text;
  }

  private String sampleStart() throws IOException {
    Path stock = home.resolve("opt/local/bin/start-sample-cluster.sh");
    if (!Files.isRegularFile(stock)) {
      return null;
    }
    String text = Files.readString(stock, StandardCharsets.UTF_8);
    String cc = "\"$INSTALLDIR/bin/asterixcc\"";
    int at = text.indexOf(cc);
    if (at < 0 || text.indexOf(cc, at + 1) >= 0) {
      throw new IllegalArgumentException(stock + " does not start bin/asterixcc once as"
          + " AsterixDB 0.9.8's sample script does; refusing to derive Strata's from it");
    }
    return text.replace(cc, "\"$INSTALLDIR/bin/" + CC_SCRIPT + "\"");
  }

  private String installJars() throws IOException {
    Path repo = home.resolve("repo");
    Path list = repo.resolve(JAR_LIST);
    Set<String> names = new LinkedHashSet<>();
    int copied = 0;
    for (Path j : jars) {
      String name = j.getFileName().toString();
      names.add(name);
      Path target = repo.resolve(name);
      if (Files.isRegularFile(target) && Files.mismatch(j, target) == -1) {
        continue;
      }
      Path tmp = repo.resolve(name + ".strata-tmp");
      Files.copy(j, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      copied++;
    }
    int removed = 0;
    if (Files.isRegularFile(list)) {
      for (String old : Files.readAllLines(list, StandardCharsets.UTF_8)) {
        String n = old.strip();
        if (!n.isEmpty() && !names.contains(n) && !n.contains("/")
            && Files.deleteIfExists(repo.resolve(n))) {
          removed++;
        }
      }
    }
    String listed = String.join("\n", names) + "\n";
    write(list, listed, false);
    return copied == 0 && removed == 0 ? "repo/: Strata's " + names.size() + " jars already there"
        : "repo/: " + copied + " of Strata's " + names.size() + " jars copied"
            + (removed > 0 ? ", " + removed + " from an earlier install removed" : "");
  }

  /** Writes {@code text} to {@code p} whole (temporary file, then a move), unless it holds it. */
  private String write(Path p, String text, boolean executable) throws IOException {
    String label = p.startsWith(home) ? home.relativize(p).toString() : p.toString();
    if (Files.isRegularFile(p) && Files.readString(p, StandardCharsets.UTF_8).equals(text)) {
      return label + ": already as Strata needs it";
    }
    Path tmp = p.resolveSibling(p.getFileName() + ".strata-tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    if (executable) {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return label + ": written";
  }
}
