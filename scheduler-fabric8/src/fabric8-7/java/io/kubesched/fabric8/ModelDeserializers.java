package io.kubesched.fabric8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.BeanDeserializerFactory;
import com.fasterxml.jackson.databind.deser.Deserializers;
import com.fasterxml.jackson.databind.deser.ResolvableDeserializer;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.util.Converter;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decodes fabric8's model classes from their fields ({@link ModelShape}), so that Jackson never introspects their
 * methods and loads none of their builders: the fabric8 7 line's, on Jackson 2, with the same rules as fabric8
 * 8's. Jackson asks a module's deserializers before it introspects a class; this answers for a class of the
 * known shape while the mapper's settings are ones under which the result is what Jackson's bean deserializer
 * gives (no naming strategy, no case-insensitive names, no default typing, no failure on ignored properties, no
 * configuration override of the class), and leaves every other class to Jackson. Each property's value is decoded
 * by the deserializer Jackson finds for the field's declared type; a null, and a value decoded to null, becomes
 * that deserializer's null value; a name that is no property goes to {@code setAdditionalProperty}, except a
 * mix-in's ignored names (unlike Jackson 3, Jackson 2 skips no {@code @JsonIgnore}d accessor's name on a class
 * with an any-setter); an error carries the path Jackson would give it. Anything but a JSON object, an active
 * view, or decoding into an existing object, goes to Jackson's own bean deserializer for the class, built then.
 * {@code ModelDecodingProperties} (scheduler-k8s) checks the result against Jackson's on each line.
 *
 * <p>fabric8's {@code UnmatchedFieldTypeModule} changes a bean deserializer only in its template mode (a value
 * of the wrong type kept as an additional property), which fabric8 enters only to process templates, never on the
 * scheduling client; outside it, as here, a value of the wrong type fails as Jackson's does.
 *
 * <p>Written here rather than configured because Jackson has no setting that builds a bean deserializer without
 * listing the class's methods. Thread-safe: a class's shape is read once, each property's deserializer is found on
 * first use and kept.
 */
final class ModelDeserializers extends Deserializers.Base {

  /** @return a module whose deserializers are these */
  static SimpleModule module() {
    return new SimpleModule("kubesched-model-fields") {
      private static final long serialVersionUID = 1L;

      @Override
      public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.addDeserializers(new ModelDeserializers());
      }
    };
  }

  @Override
  public @Nullable JsonDeserializer<?> findBeanDeserializer(
      JavaType type, DeserializationConfig config, BeanDescription description) {
    Class<?> raw = type.getRawClass();
    if (config.getPropertyNamingStrategy() != null
        || config.isEnabled(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
        || config.isEnabled(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES)
        || config.findConfigOverride(raw) != null
        || config.getDefaultTyper(type) != null) {
      return null;
    }
    var shape = ModelShape.of(raw, config.findMixInClassFor(raw), ModelDeserializers::namesNothing);
    return shape == null ? null : new FieldDeserializer(type, description, shape, config);
  }

  /** fabric8's {@code @JsonDeserialize(using = None.class)}, which only stops an interface's from applying. */
  private static boolean namesNothing(Annotation annotation) {
    return annotation instanceof JsonDeserialize deserialize
        && deserialize.using() == JsonDeserializer.None.class
        && deserialize.contentUsing() == JsonDeserializer.None.class
        && deserialize.keyUsing() == KeyDeserializer.None.class
        && deserialize.builder() == Void.class
        && deserialize.as() == Void.class
        && deserialize.keyAs() == Void.class
        && deserialize.contentAs() == Void.class
        && deserialize.converter() == Converter.None.class
        && deserialize.contentConverter() == Converter.None.class;
  }

  /** One model class's deserializer. */
  private static final class FieldDeserializer extends JsonDeserializer<Object> {

    private final JavaType type;
    private final BeanDescription description;
    private final MethodHandle constructor;
    private final Map<String, Property> properties;
    private final Set<String> ignored;
    private final MethodHandle anySetter;
    private volatile @Nullable JsonDeserializer<Object> anyValues;
    private volatile @Nullable JsonDeserializer<Object> jacksons;

    FieldDeserializer(JavaType type, BeanDescription description, ModelShape shape, DeserializationConfig config) {
      this.type = type;
      this.description = description;
      this.constructor = shape.constructor();
      var properties = new HashMap<String, Property>();
      shape.properties().forEach((name, property) -> properties.put(
          name, new Property(config.getTypeFactory().constructType(property.type()), property.setter())));
      this.properties = Map.copyOf(properties);
      // Jackson 2 hands the names of @JsonIgnore'd accessors to the any-setter, and skips only a mix-in's.
      this.ignored = shape.ignored();
      this.anySetter = shape.anySetter();
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      String name;
      var token = p.currentToken();
      if (ctxt.getActiveView() != null) {
        return jacksons(ctxt).deserialize(p, ctxt);
      } else if (token == JsonToken.START_OBJECT) {
        name = p.nextFieldName();
      } else if (token == JsonToken.FIELD_NAME) {
        name = p.currentName();
      } else if (token == JsonToken.END_OBJECT) {
        name = null;
      } else {
        return jacksons(ctxt).deserialize(p, ctxt);
      }
      Object bean;
      try {
        bean = (Object) constructor.invokeExact();
      } catch (Throwable e) {
        return ctxt.handleInstantiationProblem(type.getRawClass(), null, e);
      }
      for (; name != null; name = p.nextFieldName()) {
        var value = p.nextToken();
        try {
          var property = properties.get(name);
          if (property != null) {
            property.set(bean, p, value, ctxt);
          } else if (ignored.contains(name)) {
            p.skipChildren();
          } else {
            anySetter.invokeExact(bean, name, any(p, value, ctxt));
          }
        } catch (Throwable e) {
          throw wrap(e, bean, name, ctxt);
        }
      }
      return bean;
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt, Object intoValue) throws IOException {
      return jacksons(ctxt).deserialize(p, ctxt, intoValue);
    }

    private @Nullable Object any(JsonParser p, @Nullable JsonToken value, DeserializationContext ctxt)
        throws IOException {
      var deserializer = anyValues;
      if (deserializer == null) {
        deserializer = ctxt.findContextualValueDeserializer(ctxt.constructType(Object.class), null);
        anyValues = deserializer;
      }
      return value == JsonToken.VALUE_NULL ? deserializer.getNullValue(ctxt) : deserializer.deserialize(p, ctxt);
    }

    /** As Jackson's bean deserializer reports a property's failure: with the bean and name on its path. */
    private static IOException wrap(Throwable e, Object bean, String name, DeserializationContext ctxt)
        throws IOException {
      if (e instanceof Error error) {
        throw error;
      }
      boolean wrap = ctxt.isEnabled(DeserializationFeature.WRAP_EXCEPTIONS);
      if (e instanceof IOException io && (!wrap || !(e instanceof com.fasterxml.jackson.core.JacksonException))) {
        throw io;
      }
      if (!wrap && e instanceof RuntimeException runtime) {
        throw runtime;
      }
      return JsonMappingException.wrapWithPath(e, bean, name);
    }

    /** Jackson's own bean deserializer of the class, for what the field table does not decode. */
    private JsonDeserializer<Object> jacksons(DeserializationContext ctxt) throws IOException {
      var deserializer = jacksons;
      if (deserializer == null) {
        deserializer = BeanDeserializerFactory.instance.buildBeanDeserializer(ctxt, type, description);
        if (deserializer instanceof ResolvableDeserializer resolvable) {
          resolvable.resolve(ctxt);
        }
        @SuppressWarnings("unchecked")
        var contextual = (JsonDeserializer<Object>) ctxt.handleSecondaryContextualization(deserializer, null, type);
        deserializer = contextual;
        jacksons = deserializer;
      }
      return deserializer;
    }

    @Override
    public Class<?> handledType() {
      return type.getRawClass();
    }

    @Override
    public LogicalType logicalType() {
      return LogicalType.POJO;
    }

    @Override
    public boolean isCachable() {
      return true;
    }
  }

  /** One property: its declared type and setter; its value deserializer found on first use. */
  private static final class Property {

    private final JavaType type;
    private final MethodHandle setter;
    private volatile @Nullable Values values;

    Property(JavaType type, MethodHandle setter) {
      this.type = type;
      this.setter = setter;
    }

    void set(Object bean, JsonParser p, @Nullable JsonToken token, DeserializationContext ctxt) throws Throwable {
      var found = values;
      if (found == null) {
        found = new Values(ctxt.findContextualValueDeserializer(type, null),
            ctxt.getFactory().findTypeDeserializer(ctxt.getConfig(), type));
        values = found;
      }
      Object value;
      if (token == JsonToken.VALUE_NULL) {
        value = found.deserializer().getNullValue(ctxt);
      } else if (found.typed() != null) {
        value = found.deserializer().deserializeWithType(p, ctxt, found.typed());
      } else {
        value = found.deserializer().deserialize(p, ctxt);
        if (value == null) {
          value = found.deserializer().getNullValue(ctxt); // as Jackson's setter property does
        }
      }
      setter.invokeExact(bean, value);
    }
  }

  private record Values(JsonDeserializer<Object> deserializer, @Nullable TypeDeserializer typed) {}
}
