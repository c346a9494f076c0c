package io.kubesched.fabric8;

import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.KeyDeserializer;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.deser.BeanDeserializerFactory;
import tools.jackson.databind.deser.Deserializers;
import tools.jackson.databind.jsontype.TypeDeserializer;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.databind.util.Converter;

/**
 * Decodes fabric8's model classes from their fields ({@link ModelShape}), so that Jackson never introspects their
 * methods and loads none of their builders. Jackson asks a module's deserializers before it introspects a class;
 * this answers for a class of the known shape while the mapper's settings are ones under which the result is
 * what Jackson's bean deserializer gives (no naming strategy, no case-insensitive names, no default typing, no
 * failure on ignored properties, no configuration override of the class), and leaves every other class to
 * Jackson. Each property's value is decoded by the deserializer Jackson finds for the field's declared type, so
 * coercions, collections, {@code Quantity} and fabric8's own modules stay Jackson's; a null, and a value decoded
 * to null, becomes that deserializer's null value; a name that is no property goes to {@code
 * setAdditionalProperty}, except the names Jackson 3 ignores (a mix-in's, and those of {@code @JsonIgnore}d
 * accessors); an error carries the path Jackson would give it.
 * Anything but a JSON object (a string, an array, a number), an active view, or decoding into an existing
 * object, goes to Jackson's own bean deserializer for the class, built then, so malformed input fails or
 * succeeds as it did. {@code ModelDecodingProperties} (scheduler-k8s) checks that the result is Jackson's,
 * value or whole exception chain, for random objects of every kind the scheduler registers.
 *
 * <p>fabric8's {@code UnmatchedFieldTypeModule} changes a bean deserializer only in its template mode (a value
 * of the wrong type kept as an additional property), which fabric8 enters only to process templates, never on the
 * scheduling client; outside it, as here, a value of the wrong type fails as Jackson's does.
 *
 * <p>Written here rather than configured because Jackson has no setting that builds a bean deserializer without
 * listing the class's methods; the measurement is in {@code ModelShape}. Thread-safe: a class's shape is read
 * once, each property's deserializer is found on first use and kept.
 */
final class ModelDeserializers extends Deserializers.Base {

  /** @return a module whose deserializers are these */
  static JacksonModule module() {
    return new JacksonModule() {
      @Override
      public String getModuleName() {
        return "kubesched-model-fields";
      }

      @Override
      public Version version() {
        return Version.unknownVersion();
      }

      @Override
      public void setupModule(SetupContext context) {
        context.addDeserializers(new ModelDeserializers());
      }
    };
  }

  @Override
  public boolean hasDeserializerFor(DeserializationConfig config, Class<?> valueType) {
    return false; // whether one is made depends on the class's shape, read only when asked for it
  }

  @Override
  public @Nullable ValueDeserializer<?> findBeanDeserializer(
      JavaType type, DeserializationConfig config, BeanDescription.Supplier description) {
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
  private static boolean namesNothing(java.lang.annotation.Annotation annotation) {
    return annotation instanceof JsonDeserialize deserialize
        && deserialize.using() == ValueDeserializer.None.class
        && deserialize.contentUsing() == ValueDeserializer.None.class
        && deserialize.keyUsing() == KeyDeserializer.None.class
        && deserialize.builder() == Void.class
        && deserialize.as() == Void.class
        && deserialize.keyAs() == Void.class
        && deserialize.contentAs() == Void.class
        && deserialize.converter() == Converter.None.class
        && deserialize.contentConverter() == Converter.None.class;
  }

  /** One model class's deserializer. */
  private static final class FieldDeserializer extends ValueDeserializer<Object> {

    private final JavaType type;
    private final BeanDescription.Supplier description;
    private final MethodHandle constructor;
    private final Map<String, Property> properties;
    private final Set<String> ignored;
    private final MethodHandle anySetter;
    private volatile @Nullable ValueDeserializer<Object> anyValues;
    private volatile @Nullable ValueDeserializer<Object> jacksons;

    FieldDeserializer(
        JavaType type, BeanDescription.Supplier description, ModelShape shape, DeserializationConfig config) {
      this.type = type;
      this.description = description;
      this.constructor = shape.constructor();
      var properties = new HashMap<String, Property>();
      shape.properties().forEach((name, property) -> properties.put(
          name, new Property(config.getTypeFactory().constructType(property.type()), property.setter())));
      this.properties = Map.copyOf(properties);
      var ignored = new HashSet<>(shape.ignored());
      ignored.addAll(shape.ignoredAccessors()); // Jackson 3 skips a @JsonIgnore'd name even with an any-setter
      this.ignored = Set.copyOf(ignored);
      this.anySetter = shape.anySetter();
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) {
      String name;
      var token = p.currentToken();
      if (ctxt.getActiveView() != null) {
        return jacksons(ctxt).deserialize(p, ctxt);
      } else if (token == JsonToken.START_OBJECT) {
        name = p.nextName();
      } else if (token == JsonToken.PROPERTY_NAME) {
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
      for (; name != null; name = p.nextName()) {
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
    public Object deserialize(JsonParser p, DeserializationContext ctxt, Object intoValue) {
      return jacksons(ctxt).deserialize(p, ctxt, intoValue);
    }

    private @Nullable Object any(JsonParser p, @Nullable JsonToken value, DeserializationContext ctxt) {
      var deserializer = anyValues;
      if (deserializer == null) {
        deserializer = ctxt.findContextualValueDeserializer(ctxt.constructType(Object.class), null);
        anyValues = deserializer;
      }
      return value == JsonToken.VALUE_NULL ? deserializer.getNullValue(ctxt) : deserializer.deserialize(p, ctxt);
    }

    /** As Jackson's bean deserializer reports a property's failure: with the bean and name on its path. */
    private static RuntimeException wrap(Throwable e, Object bean, String name, DeserializationContext ctxt) {
      if (e instanceof Error error) {
        throw error;
      }
      if (e instanceof RuntimeException runtime && !ctxt.isEnabled(DeserializationFeature.WRAP_EXCEPTIONS)) {
        return runtime;
      }
      return DatabindException.wrapWithPath(ctxt, e, new JacksonException.Reference(bean, name));
    }

    /** Jackson's own bean deserializer of the class, for what the field table does not decode. */
    private ValueDeserializer<Object> jacksons(DeserializationContext ctxt) {
      var deserializer = jacksons;
      if (deserializer == null) {
        deserializer = BeanDeserializerFactory.instance.buildBeanDeserializer(ctxt, type, description);
        deserializer.resolve(ctxt);
        @SuppressWarnings("unchecked")
        var contextual = (ValueDeserializer<Object>) ctxt.handleSecondaryContextualization(deserializer, null, type);
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
        found = new Values(ctxt.findContextualValueDeserializer(type, null), ctxt.findTypeDeserializer(type));
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

  private record Values(ValueDeserializer<Object> deserializer, @Nullable TypeDeserializer typed) {}
}
