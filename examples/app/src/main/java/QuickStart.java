import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Path;
import java.util.Optional;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.LsmStore;

public class QuickStart {
  public static void main(String[] args) throws Exception {
    // The default configuration (docs/configuration.md); a JSON file works too.
    try (LsmStore store = LsmStore.open(Path.of(args[0]), StoreConfig.defaults())) {
      store.put("user1".getBytes(UTF_8), "{\"name\": \"Ada\"}".getBytes(UTF_8));
      store.put("user2".getBytes(UTF_8), "{\"name\": \"Grace\"}".getBytes(UTF_8));
      Optional<byte[]> v = store.get("user1".getBytes(UTF_8));
      System.out.println("user1 = " + new String(v.orElseThrow(), UTF_8));
      try (ScanCursor c = store.scan(null, null)) {   // every key, in order
        while (c.hasNext()) {
          KeyValue kv = c.next();
          System.out.println(new String(kv.key(), UTF_8) + " -> " + new String(kv.value(), UTF_8));
        }
      }
    }
  }
}
