package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses unknown keys in an object whose record embeds another at its own level ({@code
 * @JsonUnwrapped}: a dataset configuration holds the store keys beside its own). Jackson hands
 * every key it does not know to the embedded record and never reports one as unknown there, so this
 * checks the keys against both records' before binding.
 */
final class KnownKeysDeserializer extends DelegatingDeserializer {
  private static final long serialVersionUID = 1L;
  private final Set<String> keys;

  KnownKeysDeserializer(JsonDeserializer<?> delegate, Set<String> keys) {
    super(delegate);
    this.keys = keys;
  }

  /**
   * The JSON keys of {@code type}, with those of the records it embeds; sorted.
   */
  static Set<String> keysOf(DeserializationConfig config, BeanDescription type) {
    Set<String> keys = new TreeSet<>();
    for (BeanPropertyDefinition p : type.findProperties()) {
      if (embeds(p)) {
        keys.addAll(keysOf(config, config.introspect(p.getPrimaryType())));
      } else {
        keys.add(p.getName());
      }
    }
    return keys;
  }

  /** True if {@code type} embeds another record at its own level. */
  static boolean embedsAny(BeanDescription type) {
    return type.findProperties().stream().anyMatch(KnownKeysDeserializer::embeds);
  }

  private static boolean embeds(BeanPropertyDefinition p) {
    for (AnnotatedMember m : new AnnotatedMember[] {p.getConstructorParameter(), p.getField(),
        p.getGetter()}) {
      if (m != null && m.hasAnnotation(JsonUnwrapped.class)
          && m.getAnnotation(JsonUnwrapped.class).enabled()) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
    return new KnownKeysDeserializer(delegate, keys);
  }

  @Override
  public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (!p.isExpectedStartObjectToken()) {
      return super.deserialize(p, ctxt); // the record's own deserializer reports the wrong type
    }
    JsonNode tree = ctxt.readTree(p);
    for (String name : (Iterable<String>) tree::fieldNames) {
      if (!keys.contains(name)) {
        // from() puts the key on the error's path
        throw UnrecognizedPropertyException.from(p, handledType(), name, new ArrayList<>(keys));
      }
    }
    try (JsonParser again = tree.traverse(p.getCodec())) {
      again.nextToken();
      return super.deserialize(again, ctxt);
    }
  }
}
