package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.testing.FlipTally;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;

/**
 * A saved configuration damaged so that it still parses (found by the corruption campaign) fails
 * the open clearly, naming the file, and changes nothing: a dataset.json whose partition count or
 * secondary-index field changed would otherwise route reads to empty partitions or query an index
 * by the wrong field; a damaged key or plug-in name must name the file it is in.
 */
class DamagedConfigurationTest {
  @TempDir Path tmp;

  private Path dataset() {
    Path dir = tmp.resolve("ds");
    try (Dataset ds = Dataset.open(dir, DatasetCorruptionCampaignTest.config())) {
      for (int i = 0; i < 50; i++) {
        ds.upsert("r" + i, Map.of("city", "c" + (i % 3)));
      }
      ds.flush();
    }
    Path layout = dir.resolve(DatasetLayout.FILE);
    assertThat(layout).exists();
    return dir;
  }

  private static void replace(Path file, String from, String to) throws Exception {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(text).contains(from);
    Files.writeString(file, text.replace(from, to), StandardCharsets.UTF_8);
  }

  private static void refusedNaming(Path dir, String fileName) throws Exception {
    Map<String, String> before = LogImages.snapshot(dir);
    assertThatThrownBy(() -> Dataset.open(dir, null).close())
        .isInstanceOf(CorruptionException.class).hasMessageContaining(fileName);
    assertThat(LogImages.snapshot(dir)).as("a refused open changes nothing").isEqualTo(before);
    assertThat(DatasetVerifier.verifyFiles(dir).faults())
        .anySatisfy(f -> assertThat(f).contains(fileName));
  }

  @Test
  void aChangedPartitionCountRefusesTheOpen() throws Exception {
    Path dir = dataset();
    replace(dir.resolve(Dataset.CONFIG_FILE), "\"partitions\" : 2", "\"partitions\" : 3");
    refusedNaming(dir, Dataset.CONFIG_FILE);
  }

  @Test
  void aChangedPartitionCountIsRefusedEvenWithoutALayoutFile() throws Exception {
    Path dir = dataset();
    Files.delete(dir.resolve(DatasetLayout.FILE)); // a dataset written before the layout file
    replace(dir.resolve(Dataset.CONFIG_FILE), "\"partitions\" : 2", "\"partitions\" : 3");
    refusedNaming(dir, Dataset.CONFIG_FILE);
  }

  @Test
  void aChangedSecondaryFieldRefusesTheOpen() throws Exception {
    Path dir = dataset();
    replace(dir.resolve(Dataset.CONFIG_FILE), "\"city\"", "\"cjty\"");
    refusedNaming(dir, Dataset.CONFIG_FILE);
  }

  @Test
  void aChangedSecondaryNameRefusesTheOpen() throws Exception {
    Path dir = dataset();
    replace(dir.resolve(Dataset.CONFIG_FILE), "\"by_city\"", "\"by_ciDy\"");
    refusedNaming(dir, Dataset.CONFIG_FILE);
  }

  @Test
  void aDamagedLayoutFileRefusesTheOpen() throws Exception {
    Path dir = dataset();
    FlipTally.flip(dir.resolve(DatasetLayout.FILE), Files.size(dir.resolve(DatasetLayout.FILE))
        - 3, 0x01);
    refusedNaming(dir, DatasetLayout.FILE);
  }

  @Test
  void aDatasetWithoutALayoutFileGetsOneAtItsNextOpen() throws Exception {
    Path dir = dataset();
    Files.delete(dir.resolve(DatasetLayout.FILE));
    try (Dataset ds = Dataset.open(dir, null)) {
      assertThat(ds.get("r7")).isPresent();
    }
    assertThat(DatasetLayout.read(dir)).isEqualTo(DatasetLayout.body(
        DatasetCorruptionCampaignTest.config()));
  }

  @Test
  void aDamagedPluginNameInTheSavedConfigurationNamesTheFile() throws Exception {
    Path dir = dataset();
    replace(dir.resolve(Dataset.CONFIG_FILE), "test-merge-all", "test-merge-alm");
    assertThatThrownBy(() -> Dataset.open(dir, null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(dir.resolve(Dataset.CONFIG_FILE).toString())
        .hasMessageContaining("test-merge-alm");
    Path store = tmp.resolve("store");
    LsmStore.open(store, TestStores.smallConfig(100)).close();
    replace(store.resolve("config.json"), "test-serial", "test-serjal");
    assertThatThrownBy(() -> LsmStore.open(store, null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(store.resolve("config.json").toString())
        .hasMessageContaining("test-serjal");
  }

  @Test
  void aDamagedLogDirInTheSavedConfigurationRefusesTheOpen() throws Exception {
    Path build = tmp.resolve("build");
    Path store = tmp.resolve("store");
    String logDir = tmp.resolve("logs").toString();
    try (LsmStore s = LsmStore.open(build, TestStores.smallConfig(100)
        .withLog(TestStores.smallConfig(100).log().withDir(logDir)))) {
      s.put(TestStores.b("flushed"), TestStores.b("1"));
      s.flush();
      s.put(TestStores.b("in-the-log-only"), TestStores.b("2"));
      s.sync();
      LogImages.copyTree(build, store); // what a crash leaves; the log stays where it is
    }
    replace(store.resolve("config.json"), logDir, tmp.resolve("logt").toString());
    assertThatThrownBy(() -> LsmStore.open(store, null).close())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(store.resolve("config.json").toString())
        .hasMessageContaining("log.dir");
    assertThat(tmp.resolve("logt")).doesNotExist();

    Path ds = dataset();
    Path dsLogs = tmp.resolve("ds-logs");
    Dataset.open(ds, DatasetCorruptionCampaignTest.config().withStore(
        DatasetCorruptionCampaignTest.config().store().withLog(
            TestStores.smallConfig(100).log().withDir(dsLogs.toString())))).close();
    replace(ds.resolve(Dataset.CONFIG_FILE), dsLogs.toString(), tmp.resolve("ds-logt").toString());
    assertThatThrownBy(() -> Dataset.open(ds, null).close())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(ds.resolve(Dataset.CONFIG_FILE).toString())
        .hasMessageContaining("log.dir");
    assertThat(tmp.resolve("ds-logt")).doesNotExist();
  }

  @Test
  void aDamagedKeyInTheSavedConfigurationNamesTheFile() throws Exception {
    Path store = tmp.resolve("store");
    LsmStore.open(store, TestStores.smallConfig(100)).close();
    replace(store.resolve("config.json"), "\"recovery-mode\"", "\"r#covery-mode\"");
    assertThatThrownBy(() -> LsmStore.open(store, null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(store.resolve("config.json").toString())
        .hasMessageContaining("r#covery-mode");
  }
}
