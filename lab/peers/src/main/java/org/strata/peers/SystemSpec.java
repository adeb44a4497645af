package org.strata.peers;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import org.strata.twophase.TwoPhaseConfig;
import org.strata.twophase.TwoPhaseTarget;

/**
 * One entry of a comparison's {@code systems} list, chosen by its {@code name}: {@code strata}
 * ({@link StrataSystem}), {@code rocksdb} ({@link RocksDbSystem}), {@code hyracks} ({@link
 * HyracksSystem}) or {@code rocksdb-native} ({@link RocksDbNativeSystem}, load-only comparisons).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "name")
@JsonSubTypes({
    @JsonSubTypes.Type(value = StrataSystem.class, name = "strata"),
    @JsonSubTypes.Type(value = RocksDbSystem.class, name = "rocksdb"),
    @JsonSubTypes.Type(value = HyracksSystem.class, name = "hyracks"),
    @JsonSubTypes.Type(value = RocksDbNativeSystem.class, name = "rocksdb-native")})
public sealed interface SystemSpec permits StrataSystem, RocksDbSystem, HyracksSystem,
    RocksDbNativeSystem {

  /** The names a {@code systems} entry may have. */
  List<String> NAMES = List.of("strata", "rocksdb", "hyracks", "rocksdb-native");

  /** The system's name. */
  String system();

  /** The label given, or the default one. */
  String label();

  /**
   * The targets this entry runs against {@code base}: one, or for a Strata entry without an
   * {@code api} in a load-only comparison, one per API ({@code dataset} and {@code store}).
   */
  List<Run> targets(TwoPhaseConfig base, boolean loadOnly);

  /**
   * A target and the two-phase configuration it runs (Strata's carries its dataset overrides).
   *
   * @param config the two-phase configuration for this system
   * @param target the system under test
   */
  record Run(TwoPhaseConfig config, TwoPhaseTarget target) {}
}
