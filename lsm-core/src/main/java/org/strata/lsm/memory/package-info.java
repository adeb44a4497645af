/**
 * The memory component ({@link org.strata.lsm.memory.MemoryComponent}): a concurrent sorted map
 * from key to the newest value or anti-matter, with the byte-budget accounting that decides when
 * it is full. Which memory components an index holds, and when one is sealed, is the engine's
 * {@code org.strata.lsm.engine.MemoryComponents}.
 */
package org.strata.lsm.memory;
