package org.strata.asterixdb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.strata.asterixdb.DistributionInstall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code strata asterixdb install --home DIR [--conf FILE]}: installs Strata into an unpacked
 * AsterixDB 0.9.8 server distribution ({@link DistributionInstall}) and says how to start it.
 */
@Command(name = "install", mixinStandardHelpOptions = true,
    description = "Install Strata into an unpacked AsterixDB 0.9.8 server distribution: its jars"
        + " into repo/, launch scripts bin/strata-asterixcc and bin/strata-asterixnc that start"
        + " Strata's applications, and the cluster configuration's [nc] command set to the"
        + " latter. Idempotent; refuses a home that is not a 0.9.8 distribution.")
final class InstallCommand implements Callable<Integer> {
  @Option(names = "--home", required = true, paramLabel = "DIR",
      description = "The unpacked distribution (the directory holding bin/ and repo/).")
  Path home;

  @Option(names = "--conf", paramLabel = "FILE",
      description = "The cluster configuration to patch (default: DIR/opt/local/conf/cc.conf,"
          + " the sample cluster's).")
  Path conf;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    DistributionInstall install = new DistributionInstall(home, conf,
        DistributionInstall.strataJars());
    PrintWriter o = spec.commandLine().getOut();
    for (String line : install.install()) {
      o.println(line);
    }
    o.println("start the cluster controller with bin/" + DistributionInstall.CC_SCRIPT
        + " (node services start bin/" + DistributionInstall.NC_SCRIPT + "), or the sample"
        + " cluster with opt/local/bin/" + DistributionInstall.SAMPLE_START + "; a cluster"
        + " holding Strata datasets must always start this way");
    o.flush();
    return 0;
  }
}
