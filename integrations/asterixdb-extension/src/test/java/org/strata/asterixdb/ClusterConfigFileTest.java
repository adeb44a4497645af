package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated configuration, a user's file laid over it, and the port check. */
class ClusterConfigFileTest {
  @TempDir Path dir;

  @Test
  void userKeysReplaceAndAddToTheGeneratedOnes() throws Exception {
    Path user = dir.resolve("user.conf");
    Files.writeString(user, "; mine\n[nc]\nstorage.memorycomponent.globalbudget = 256MB\n"
        + "[" + StrataExtension.SECTION + "]\nscheduler = fair\n");
    ClusterConfigFile c = ClusterConfigFile.of(dir, 3, 2, ClusterConfigFile.readIni(user));
    assertThat(c.nodes()).containsExactly("asterix_nc1", "asterix_nc2", "asterix_nc3");
    assertThat(c.get("nc", "storage.memorycomponent.globalbudget")).isEqualTo("256MB");
    assertThat(c.get(StrataExtension.SECTION, "scheduler")).isEqualTo("fair");
    assertThat(c.get(StrataExtension.SECTION, "enabled")).isEqualTo("true");
    assertThat(c.node("asterix_nc3").get("iodevices").split(",")).hasSize(2);
    assertThat(c.fixedPorts()).containsKeys(1098, 1099, 19002, 19004, 19005, 19006, 16001);
    Path written = c.write(dir);
    assertThat(ClusterConfigFile.readIni(written)).isEqualTo(c.sections());
  }

  @Test
  void badFilesAndCountsAreRefused() throws Exception {
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "budget = 1\n");
    assertThatThrownBy(() -> ClusterConfigFile.readIni(bad))
        .hasMessageContaining(":1:").hasMessageContaining("outside any section");
    assertThatThrownBy(() -> ClusterConfigFile.of(dir, 0, 1, Map.of()))
        .hasMessageContaining("--nodes").hasMessageContaining("1 or more");
  }

  @Test
  void aTakenPortFailsBeforeAnythingStarts() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> EmbeddedCluster.checkPorts(Map.of(port, "the query service")))
          .isInstanceOf(PortInUseException.class)
          .hasMessageContaining("port " + port + " (the query service) is in use");
    }
  }
}
