/**
 * The memory component ({@link org.strata.lsm.memory.MemoryComponent}): a concurrent, ordered,
 * multi-version set of writes whose newest version per key (value or anti-matter) is what readers
 * see, kept in an arena-backed lock-free skip list, with the byte-budget accounting that decides
 * when it is full. Which memory components an index holds, and when one is sealed, is the
 * engine's {@code org.strata.lsm.engine.MemoryComponents}.
 */
package org.strata.lsm.memory;
