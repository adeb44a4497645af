package org.strata.lsm.component;

import org.strata.lsm.io.BigEndian;

import java.util.Arrays;

/**
 * Accumulates the entries of one leaf or interior page into a reusable buffer, with no allocation
 * per entry once the buffers have grown. {@link #encodeTo} frames it as a page: header, body and
 * CRC32C (docs/format.md).
 *
 * <p>Public so the page build can be measured on its own (the {@code benchmarks} module); the
 * engine uses it only through {@link ComponentWriter}. Not thread-safe.
 */
public final class PageBuilder {
  /** Page header: body length u32 + type u8. */
  static final int HEADER = 5;
  /** Page trailer: CRC32C u32. */
  static final int TRAILER = 4;

  private byte[] body = new byte[8192];
  private int pos = 4;
  private int[] offsets = new int[256];
  private int count;

  /** True when no entry was added since the last {@link #encodeTo}. */
  public boolean isEmpty() {
    return count == 0;
  }

  /** Entries added since the last {@link #encodeTo}. */
  public int count() {
    return count;
  }

  /** Framed size of the page if it were finished now. */
  public int encodedSize() {
    return HEADER + pos + 4 * count + TRAILER;
  }

  /** Framed size after adding an entry of {@code entryBytes} bytes. */
  public int encodedSizeWith(int entryBytes) {
    return encodedSize() + entryBytes + 4;
  }

  /** Body bytes of one leaf entry (without its 4-byte offset slot). */
  public static int leafEntrySize(int keyLen, int valueLen, boolean antimatter) {
    return Varint.size(keyLen) + keyLen + 1 + (antimatter ? 0 : Varint.size(valueLen) + valueLen);
  }

  static int interiorEntrySize(int keyLen) {
    return Varint.size(keyLen) + keyLen + 12;
  }

  private void ensure(int more) {
    if (pos + more > body.length) {
      body = Arrays.copyOf(body, Math.max(body.length * 2, pos + more));
    }
    if (count == offsets.length) {
      offsets = Arrays.copyOf(offsets, count * 2);
    }
  }

  /**
   * Adds a leaf entry from slices of arrays ({@code antimatter} ignores the value slice). The
   * caller keeps keys ascending and the page within its size (see {@link #encodedSizeWith}).
   */
  public void addLeaf(byte[] key, int keyOff, int keyLen, byte[] value, int valOff, int valLen,
      boolean antimatter) {
    ensure(leafEntrySize(keyLen, valLen, antimatter));
    offsets[count++] = pos;
    pos = Varint.put(body, pos, keyLen);
    System.arraycopy(key, keyOff, body, pos, keyLen);
    pos += keyLen;
    body[pos++] = antimatter ? Page.KIND_ANTIMATTER : Page.KIND_VALUE;
    if (!antimatter) {
      pos = Varint.put(body, pos, valLen);
      System.arraycopy(value, valOff, body, pos, valLen);
      pos += valLen;
    }
  }

  /** Adds an interior entry: the child page's first key (a slice) and where the child is. */
  void addInterior(byte[] key, int keyOff, int keyLen, long childOffset, int childLength) {
    ensure(interiorEntrySize(keyLen));
    offsets[count++] = pos;
    pos = Varint.put(body, pos, keyLen);
    System.arraycopy(key, keyOff, body, pos, keyLen);
    pos += keyLen;
    BigEndian.putLong(body, pos, childOffset);
    BigEndian.putInt(body, pos + 8, childLength);
    pos += 12;
  }

  /**
   * Writes the framed page into {@code out} at {@code at}, which must have {@link #encodedSize()}
   * bytes of room, and resets the builder.
   */
  public void encodeTo(PageType type, byte[] out, int at) {
    int bodyLen = pos + 4 * count;
    BigEndian.putInt(body, 0, count);
    BigEndian.putInt(out, at, bodyLen);
    out[at + 4] = (byte) type.code();
    System.arraycopy(body, 0, out, at + HEADER, pos);
    int p = at + HEADER + pos;
    for (int i = 0; i < count; i++) {
      BigEndian.putInt(out, p, offsets[i]);
      p += 4;
    }
    PageCodec.sealChecksum(out, at, HEADER + bodyLen);
    pos = 4;
    count = 0;
  }
}
