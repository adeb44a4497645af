/**
 * Configuration by Jackson data binding: immutable records that mirror the JSON (kebab-case keys)
 * of a store ({@link org.strata.lsm.config.StoreConfig} and its sections: {@link
 * org.strata.lsm.config.LogConfig}, {@link org.strata.lsm.config.MemoryComponentConfig}, {@link
 * org.strata.lsm.config.FlowControl}, {@link org.strata.lsm.config.IoConfig}, {@link
 * org.strata.lsm.config.PageCacheConfig}, {@link org.strata.lsm.config.BloomFilterConfig}, {@link
 * org.strata.lsm.config.NamedPlugin}), with defaults and range checks in their compact
 * constructors ({@link org.strata.lsm.config.ConfigChecks}) so that a configuration built in code
 * is validated as a file is. {@link org.strata.lsm.config.ConfigMapper} is the one mapper for
 * every configuration file (store, dataset, two-phase, comparison); {@link
 * org.strata.lsm.config.ConfigErrors} turns Jackson's errors into messages naming the key ({@link
 * org.strata.lsm.config.ConfigPath}), the value and what is allowed. {@link
 * org.strata.lsm.config.Quantities} and {@link org.strata.lsm.config.ByteSize} read counts and
 * sizes typed by people; {@link org.strata.lsm.config.ConfigOverrides} applies {@code --set
 * key=value}.
 */
package org.strata.lsm.config;
