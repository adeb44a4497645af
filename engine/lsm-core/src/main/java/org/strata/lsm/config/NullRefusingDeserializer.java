package org.strata.lsm.config;

import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.util.AccessPattern;

/**
 * Refuses an explicit JSON {@code null} for a scalar (a string, number, boolean or mode) while
 * leaving an absent key absent, so that its record applies the default. Jackson's own {@code
 * Nulls.FAIL} cannot tell the two apart for constructor parameters. Where null is documented as
 * allowed ({@code log.dir}) the property says {@code @JsonSetter(nulls = Nulls.SKIP)}.
 */
final class NullRefusingDeserializer extends DelegatingDeserializer {
  private static final long serialVersionUID = 1L;

  NullRefusingDeserializer(JsonDeserializer<?> delegate) {
    super(delegate);
  }

  @Override
  protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
    return new NullRefusingDeserializer(delegate);
  }

  @Override
  public Object getNullValue(DeserializationContext ctxt) throws JsonMappingException {
    throw InvalidNullException.from(ctxt, null, ctxt.constructType(handledType()));
  }

  @Override
  public Object getAbsentValue(DeserializationContext ctxt) throws JsonMappingException {
    return _delegatee.getAbsentValue(ctxt);
  }

  @Override
  public AccessPattern getNullAccessPattern() {
    return AccessPattern.DYNAMIC;
  }
}
