package org.strata.ycsb;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.dataset.DatasetRecord;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB binding to an embedded Strata dataset. All client threads of a JVM share one dataset per
 * directory ({@code strata.dir}), opened by the first {@code init} and closed by the last {@code
 * cleanup}. Inserts and updates are blind upserts of the given fields (no read before the write,
 * as in the paper), so workloads should write all fields ({@code writeallfields=true}, as the
 * shipped workloads do); an update that carries some fields replaces the record with them. The
 * YCSB table name is ignored: a directory holds one dataset. A key, field name or value that is
 * not valid Unicode text (or value bytes that are not UTF-8) is refused with an error status
 * naming it, never stored changed.
 *
 * <p>Properties: {@code strata.dir} (required), {@code strata.config} (a dataset configuration
 * file; default: the dataset's saved configuration, or the defaults for a new one).
 */
public class StrataDbBinding extends DB {
  /** Directory property. */
  public static final String DIR = "strata.dir";
  /** Configuration file property. */
  public static final String CONFIG = "strata.config";

  private Dataset dataset;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String dir = p.getProperty(DIR);
    if (dir == null || dir.isBlank()) {
      throw new DBException("property " + DIR + " is required: the dataset directory");
    }
    DatasetConfig config = null;
    String file = p.getProperty(CONFIG);
    try {
      if (file != null && !file.isBlank()) {
        config = DatasetConfigJson.read(Path.of(file));
      } else if (!Dataset.isDataset(Path.of(dir))) {
        config = DatasetConfig.of(org.strata.lsm.config.StoreConfig.defaults());
      }
      dataset = SharedDatasets.instance().acquire(Path.of(dir), config);
    } catch (RuntimeException e) {
      throw new DBException("cannot open Strata dataset " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (dataset != null) {
      try {
        SharedDatasets.instance().release(dataset);
      } catch (RuntimeException e) {
        throw new DBException("closing Strata dataset failed: " + e.getMessage(), e);
      } finally {
        dataset = null;
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
      Map<String, ByteIterator> result) {
    try {
      Optional<DatasetRecord> r = dataset.get(key);
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copy(r.get().fields(), fields, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      List<DatasetRecord> rs = dataset.scan(startkey, recordcount);
      for (DatasetRecord r : rs) {
        HashMap<String, ByteIterator> m = new HashMap<>();
        copy(r.fields(), fields, m);
        result.add(m);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return upsert(key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return upsert(key, values);
  }

  @Override
  public Status delete(String table, String key) {
    try {
      dataset.delete(key);
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  private Status upsert(String key, Map<String, ByteIterator> values) {
    try {
      dataset.upsert(key, YcsbFields.toStrings(values));
      return Status.OK;
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  private static void copy(Map<String, String> from, Set<String> fields,
      Map<String, ByteIterator> to) {
    for (Map.Entry<String, String> e : from.entrySet()) {
      if (fields == null || fields.contains(e.getKey())) {
        to.put(e.getKey(), new StringByteIterator(e.getValue()));
      }
    }
  }

  private static Status error(RuntimeException e) {
    System.err.println("strata: " + e);
    return new Status("ERROR", String.valueOf(e.getMessage()));
  }

}
