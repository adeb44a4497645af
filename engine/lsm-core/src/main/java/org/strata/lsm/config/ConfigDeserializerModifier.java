package org.strata.lsm.config;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;

/**
 * Puts the configuration rules around Jackson's deserializers: a JSON null is refused for a scalar
 * or a mode ({@link NullRefusingDeserializer}) but means "the default" for a section, a size or a
 * list; an object whose record embeds another is checked for unknown keys ({@link
 * KnownKeysDeserializer}).
 */
final class ConfigDeserializerModifier extends BeanDeserializerModifier {
  private static final long serialVersionUID = 1L;

  @Override
  public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config,
      BeanDescription description, JsonDeserializer<?> deserializer) {
    Class<?> c = description.getBeanClass();
    if (c == String.class || c == Boolean.class || c.isPrimitive()
        || Number.class.isAssignableFrom(c)) {
      return new NullRefusingDeserializer(deserializer);
    }
    if (KnownKeysDeserializer.embedsAny(description)) {
      return new KnownKeysDeserializer(deserializer,
          KnownKeysDeserializer.keysOf(config, description));
    }
    return deserializer;
  }

  @Override
  public JsonDeserializer<?> modifyEnumDeserializer(DeserializationConfig config, JavaType type,
      BeanDescription description, JsonDeserializer<?> deserializer) {
    return new NullRefusingDeserializer(deserializer);
  }
}
