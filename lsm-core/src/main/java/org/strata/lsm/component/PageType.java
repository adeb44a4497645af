package org.strata.lsm.component;

/** The kinds of page in a disk component file; the byte is stored in every page header. */
public enum PageType {
  LEAF(1),
  INTERIOR(2),
  BLOOM(3),
  META(4),
  SKETCH(5);

  private final int code;

  PageType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The type with {@code code}, or null. */
  public static PageType of(int code) {
    for (PageType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
