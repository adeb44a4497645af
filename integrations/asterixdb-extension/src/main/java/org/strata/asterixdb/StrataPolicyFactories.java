package org.strata.asterixdb;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * One {@link StrataPolicyFactory} class per {@link PolicyRow}: AsterixDB's {@code
 * CompactionPolicy} metadata names a factory by class, and Hyracks' persisted-resource registry
 * reads each back through its class's static {@code fromJson}.
 */
public final class StrataPolicyFactories {
  private StrataPolicyFactories() {}

  /** {@link PolicyRow#CONSTANT}. */
  public static final class Constant extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.CONSTANT;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Constant();
    }
  }

  /** {@link PolicyRow#BIGTABLE}. */
  public static final class Bigtable extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.BIGTABLE;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Bigtable();
    }
  }

  /** {@link PolicyRow#EXPLORING}. */
  public static final class Exploring extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.EXPLORING;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Exploring();
    }
  }

  /** {@link PolicyRow#MIN_LATENCY}. */
  public static final class MinLatency extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.MIN_LATENCY;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new MinLatency();
    }
  }

  /** {@link PolicyRow#BINOMIAL}. */
  public static final class Binomial extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.BINOMIAL;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Binomial();
    }
  }

  /** {@link PolicyRow#PREFIX}. */
  public static final class Prefix extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.PREFIX;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Prefix();
    }
  }

  /** {@link PolicyRow#SIZE_TIERED}. */
  public static final class SizeTiered extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.SIZE_TIERED;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new SizeTiered();
    }
  }

  /** {@link PolicyRow#CONCURRENT}. */
  public static final class Concurrent extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.CONCURRENT;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Concurrent();
    }
  }

  /** {@link PolicyRow#SIZE_BOUNDED_CONCURRENT}. */
  public static final class SizeBoundedConcurrent extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.SIZE_BOUNDED_CONCURRENT;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new SizeBoundedConcurrent();
    }
  }

  /** {@link PolicyRow#LEVELING}. */
  public static final class Leveling extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.LEVELING;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Leveling();
    }
  }

  /** {@link PolicyRow#TIERING}. */
  public static final class Tiering extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.TIERING;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new Tiering();
    }
  }

  /** {@link PolicyRow#LAZY_LEVELING}. */
  public static final class LazyLeveling extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.LAZY_LEVELING;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new LazyLeveling();
    }
  }

  /** {@link PolicyRow#NO_MERGE}. */
  public static final class NoMerge extends StrataPolicyFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PolicyRow row() {
      return PolicyRow.NO_MERGE;
    }

    /** Hyracks' JSON counterpart of {@link #toJson}. */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry r, JsonNode json) {
      return new NoMerge();
    }
  }
}
