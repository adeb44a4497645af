package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.strata.lsm.StrataException;
import org.strata.lsm.component.ComponentVerifier;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.io.DirectoryLock;

/**
 * Verifies a closed store: the manifest's checksum, that every component it lists exists and
 * passes {@link ComponentVerifier}, and that the components of a multi-file run have ascending,
 * disjoint key ranges. Takes the directory lock so it never reads a store that is being written.
 */
public final class StoreVerifier {
  private StoreVerifier() {}

  /** What verification found. */
  public record VerifyReport(List<String> faults, int componentsChecked, long entriesChecked) {
    public boolean ok() {
      return faults.isEmpty();
    }
  }

  /** Verifies the store in {@code dir}. */
  public static VerifyReport verify(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new StrataException(dir + " is not a store directory (it does not exist or is not a"
          + " directory)");
    }
    try (DirectoryLock lock = DirectoryLock.acquire(dir, "store " + dir + " is open in another"
        + " process; close it before verifying")) {
      return verifyLocked(dir);
    } catch (IOException e) {
      throw new StrataException("cannot verify " + dir + ": " + e, e);
    }
  }

  private static VerifyReport verifyLocked(Path dir) {
    List<String> faults = new ArrayList<>();
    Manifest m;
    try {
      m = Manifest.read(dir);
    } catch (IOException | RuntimeException e) {
      faults.add(dir.resolve(Manifest.FILE) + ": " + e.getMessage());
      return new VerifyReport(faults, 0, 0);
    }
    if (m == null) {
      return new VerifyReport(faults, 0, 0);
    }
    PageCache noCache = new PageCache(0);
    int checked = 0;
    long entries = 0;
    for (Manifest.RunEntry run : m.runs()) {
      byte[] prevMax = null;
      for (String f : run.files()) {
        Path p = dir.resolve(f);
        if (!Files.exists(p)) {
          faults.add(p + ": listed in the manifest but missing");
          continue;
        }
        DiskComponent c;
        try {
          c = DiskComponent.open(p, checked, noCache);
        } catch (RuntimeException e) {
          faults.add(e.getMessage());
          continue;
        }
        try {
          ComponentVerifier.Result r = ComponentVerifier.verify(c);
          faults.addAll(r.faults());
          entries += r.entries();
          checked++;
          if (prevMax != null && Arrays.compareUnsigned(prevMax, c.meta().minKey()) >= 0) {
            faults.add(p + ": key range overlaps the previous file of its run");
          }
          prevMax = c.meta().maxKey();
        } finally {
          c.release();
        }
      }
    }
    return new VerifyReport(faults, checked, entries);
  }
}
