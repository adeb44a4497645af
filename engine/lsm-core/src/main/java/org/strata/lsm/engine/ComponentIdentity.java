package org.strata.lsm.engine;

import org.strata.lsm.component.ComponentMeta;
import org.strata.lsm.component.DiskComponent;

/**
 * What the manifest records of each component file so that the file it finds under the name is
 * the one it listed (docs/format.md): the file's size, the component ids and maximum sequence
 * number its meta page holds, the meta page's checksum (which also covers its creation time, entry
 * counts and key range), and for a CL-SSTable the size of its log segment. A component file
 * swapped with another, copied over another, restored from an older copy of the store or taken
 * from another store fails the check at open and in {@code strata verify}, naming the file.
 *
 * @param bytes size of the component file
 * @param minId first flush ordinal it covers
 * @param maxId last flush ordinal it covers
 * @param maxLsn highest sequence number its meta page records
 * @param metaChecksum CRC32C of its meta page
 * @param segmentBytes size of its log segment (a CL-SSTable), or -1
 */
record ComponentIdentity(long bytes, long minId, long maxId, long maxLsn, long metaChecksum,
    long segmentBytes) {

  /** The identity of an open component. */
  static ComponentIdentity of(DiskComponent c) {
    ComponentMeta m = c.meta();
    long segment = -1;
    if (c.logSegmentPath() != null) {
      segment = c.storedBytes() - c.sizeBytes();
    }
    return new ComponentIdentity(c.sizeBytes(), m.minComponentId(), m.maxComponentId(),
        m.maxLsn(), c.metaChecksum(), segment);
  }

  /**
   * What differs between this recorded identity and {@code found}, the identity of the file under
   * the name, or null if nothing does.
   */
  String mismatch(ComponentIdentity found) {
    if (equals(found)) {
      return null;
    }
    return "the manifest lists " + describe() + " but the file holds " + found.describe();
  }

  private String describe() {
    return "component ids " + minId + "-" + maxId + ", max sequence number " + maxLsn + ", "
        + bytes + " bytes, meta checksum " + Long.toHexString(metaChecksum)
        + (segmentBytes >= 0 ? ", log segment of " + segmentBytes + " bytes" : "");
  }
}
