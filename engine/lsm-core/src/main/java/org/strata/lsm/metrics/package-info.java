/**
 * A store's and a dataset's metrics in the Prometheus text format, read from the engine's own
 * statistics when asked ({@link org.strata.lsm.metrics.PrometheusExposition}).
 */
package org.strata.lsm.metrics;
