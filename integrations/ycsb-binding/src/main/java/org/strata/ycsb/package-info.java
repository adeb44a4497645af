/**
 * YCSB {@code DB} bindings to Strata: {@link org.strata.ycsb.StrataDbBinding} writes an embedded
 * dataset (client threads of a JVM share it through {@link org.strata.ycsb.SharedDatasets}), and
 * {@link org.strata.ycsb.StrataFeedBinding} sends every operation to a feed server over TCP.
 * {@link org.strata.ycsb.YcsbFields} converts YCSB's field bytes strictly to the strings a record
 * holds. {@code bin/ycsb} runs YCSB with these bindings.
 */
package org.strata.ycsb;
