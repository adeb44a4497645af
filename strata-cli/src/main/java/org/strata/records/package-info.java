/**
 * The records {@code strata load}, {@code gen-records} and the engine reproductions write: keys in
 * a seeded random permutation and values derived from the record id, so any run can regenerate and
 * check what it wrote.
 */
package org.strata.records;
