package org.strata.lsm;

/** A key and its current value, as a scan returns them. Arrays must not be modified. */
public record KeyValue(byte[] key, byte[] value) {}
