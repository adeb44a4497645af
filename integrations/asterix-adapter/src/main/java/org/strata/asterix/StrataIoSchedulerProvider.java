package org.strata.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationSchedulerProvider;

/**
 * Hands one {@link StrataIoScheduler} to every index that asks (Hyracks' per-resource way to find
 * a scheduler). The provider is serializable and persists only its properties; the scheduler is
 * made on first use in each process, on daemon threads, with no flush limit beyond Hyracks' one
 * flush per index.
 */
public final class StrataIoSchedulerProvider implements ILSMIOOperationSchedulerProvider {
  private static final long serialVersionUID = 1L;

  private final TreeMap<String, String> properties;
  private transient StrataIoScheduler scheduler;

  /** @param properties as for {@link StrataIoSchedulerFactory}; validated here */
  public StrataIoSchedulerProvider(Map<String, String> properties) {
    this.properties = new TreeMap<>(new StrataIoSchedulerFactory(properties).properties());
  }

  @Override
  public synchronized ILSMIOOperationScheduler getIoScheduler(INCServiceContext ctx) {
    if (scheduler == null) {
      AtomicInteger n = new AtomicInteger();
      ThreadFactory threads = r -> {
        Thread t = new Thread(r, "strata-hyracks-io-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      };
      scheduler = (StrataIoScheduler) new StrataIoSchedulerFactory(properties)
          .createIoScheduler(threads, null, 0, 0, 0);
    }
    return scheduler;
  }

  @Override
  public JsonNode toJson(IPersistedResourceRegistry registry) {
    ObjectNode json = registry.getClassIdentifier(getClass(), serialVersionUID);
    ObjectNode props = json.putObject("properties");
    properties.forEach(props::put);
    return json;
  }

  /** The JSON counterpart of {@link #toJson}, as Hyracks' persisted resource registry calls it. */
  // Runs on AsterixDB's own Jackson, which may predate properties().
  @SuppressWarnings("deprecation")
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    Map<String, String> props = new TreeMap<>();
    JsonNode p = json.get("properties");
    if (p != null) {
      for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        props.put(e.getKey(), e.getValue().asText());
      }
    }
    return new StrataIoSchedulerProvider(props);
  }
}
