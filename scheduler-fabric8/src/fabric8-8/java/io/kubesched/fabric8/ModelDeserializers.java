package io.kubesched.fabric8;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.deser.BeanDeserializerFactory;
import tools.jackson.databind.deser.Deserializers;
import tools.jackson.databind.jsontype.TypeDeserializer;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.databind.util.Converter;

/**
 * Decodes fabric8's model classes from their fields, without Jackson's introspection of their methods. Jackson
 * builds a bean deserializer from every method of a class ({@code getDeclaredMethods()}), and the JVM loads each
 * method's return type to list them: for a model class, {@code edit()} and {@code toBuilder()} load its builder
 * and fluent, about 600 classes at 500 nodes that nothing runs, 7 MiB of the class-data archive and 10 MiB of the
 * scheduler's resident memory with {@link ModelTypeFactory} (docs/performance.md, "The process, beside the
 * heap"). Jackson asks a module's {@code Deserializers} before it introspects a class, so answering here keeps
 * those classes out.
 *
 * <p>It answers only for a class whose shape it knows to be fabric8's generated one, and leaves every other to
 * Jackson: a public concrete class of {@code io.fabric8.kubernetes.api.model} or below, not generic, extending
 * {@code Object}, with a public no-argument constructor, no configuration override and no mix-in but one that
 * only ignores names (the lean serialization's {@code WithoutManagedFields}), whose Jackson
 * annotations are only {@code @JsonInclude}, {@code @JsonPropertyOrder}, {@code @JsonSerialize} and a
 * {@code @JsonDeserialize} that names no deserializer (fabric8's own), whose interfaces carry nothing but those and
 * {@code @JsonIgnore} on methods, whose every field is a {@code @JsonProperty} (with nothing but {@code
 * @JsonInclude} and {@code @JsonPropertyDescription} beside it) with a public setter named after the field and
 * taking its type, or the {@code @JsonIgnore}d {@code additionalProperties} map with its public {@code
 * setAdditionalProperty(String, Object)}; and only while the mapper has no naming strategy, no case-insensitive
 * names, no default typing and no failure on ignored properties. Each property's value is decoded by the
 * deserializer Jackson finds for the field's declared type, so coercions, collections, {@code Quantity} and
 * fabric8's own modules stay Jackson's; a name that is no property goes to {@code setAdditionalProperty}, except
 * a name Jackson ignores ({@code additionalProperties}, and a {@code @JsonIgnore}d accessor of an interface such
 * as {@code HasMetadata.getFinalizers}); an error carries the path Jackson would give it. Anything but a JSON
 * object (a string, an array, a number), an active view, or decoding into an existing object, goes to Jackson's
 * own bean deserializer for the class, built then, so malformed input fails or succeeds as it did. The
 * property {@code ModelDecodingProperties} (scheduler-k8s) checks that the result is Jackson's, error or value, for
 * every kind the scheduler watches.
 *
 * <p>Written here rather than configured because Jackson has no setting that builds a bean deserializer without
 * listing the class's methods. Thread-safe: the tables are built once, each property's deserializer is found on
 * first use and kept.
 */
final class ModelDeserializers extends Deserializers.Base {

  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model.";

  private static final String ADDITIONAL_PROPERTIES = "additionalProperties";

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
    return false; // whether one is made depends on the class's shape, found only when asked for it
  }

  @Override
  public @Nullable ValueDeserializer<?> findBeanDeserializer(
      JavaType type, DeserializationConfig config, BeanDescription.Supplier description) {
    Class<?> raw = type.getRawClass();
    if (!raw.getName().startsWith(MODEL_PACKAGE) || !decodesAsJackson(config) || !plainClass(raw, config)) {
      return null;
    }
    return FieldDeserializer.of(type, config, description);
  }

  /** Whether the mapper's settings are ones under which a field table decodes as Jackson's bean deserializer. */
  private static boolean decodesAsJackson(DeserializationConfig config) {
    return config.getPropertyNamingStrategy() == null
        && !config.isEnabled(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
        && !config.isEnabled(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES);
  }

  private static boolean plainClass(Class<?> raw, DeserializationConfig config) {
    int modifiers = raw.getModifiers();
    return Modifier.isPublic(modifiers)
        && !Modifier.isAbstract(modifiers)
        && !raw.isInterface()
        && !raw.isEnum()
        && !raw.isRecord()
        && raw.getSuperclass() == Object.class
        && raw.getTypeParameters().length == 0
        && namesOnlyMixIn(config.findMixInClassFor(raw))
        && config.findConfigOverride(raw) == null
        && config.getDefaultTyper(config.constructType(raw)) == null
        && allowedClassAnnotations(raw.getAnnotations())
        && interfacesAllowed(raw, raw, new HashSet<>());
  }

  /**
   * No mix-in, or one like {@code WithoutManagedFields}: an empty class whose only annotation ignores some
   * names, which the deserializer then ignores ({@link #mixInIgnored}).
   */
  private static boolean namesOnlyMixIn(@Nullable Class<?> mixIn) {
    if (mixIn == null) {
      return true;
    }
    var ignore = mixIn.getAnnotation(JsonIgnoreProperties.class);
    return mixIn.getSuperclass() == Object.class
        && mixIn.getInterfaces().length == 0
        && mixIn.getDeclaredFields().length == 0
        && mixIn.getDeclaredMethods().length == 0
        && mixIn.getAnnotations().length == 1
        && ignore != null
        && !ignore.ignoreUnknown()
        && !ignore.allowGetters()
        && !ignore.allowSetters();
  }

  /** The names a {@link #namesOnlyMixIn} ignores. */
  private static Set<String> mixInIgnored(@Nullable Class<?> mixIn) {
    return mixIn == null ? Set.of() : Set.of(mixIn.getAnnotation(JsonIgnoreProperties.class).value());
  }

  private static boolean allowedClassAnnotations(Annotation[] annotations) {
    for (Annotation annotation : annotations) {
      if (annotation instanceof JsonDeserialize deserialize) {
        if (!namesNothing(deserialize)) {
          return false;
        }
      } else if (!(annotation instanceof JsonInclude
          || annotation instanceof JsonPropertyOrder
          || annotation instanceof JsonSerialize
          || !jackson(annotation))) {
        return false;
      }
    }
    return true;
  }

  /** fabric8's {@code @JsonDeserialize(using = None.class)}, which only stops an interface's from applying. */
  private static boolean namesNothing(JsonDeserialize deserialize) {
    return deserialize.using() == ValueDeserializer.None.class
        && deserialize.contentUsing() == ValueDeserializer.None.class
        && deserialize.keyUsing() == KeyDeserializer.None.class
        && deserialize.builder() == Void.class
        && deserialize.as() == Void.class
        && deserialize.keyAs() == Void.class
        && deserialize.contentAs() == Void.class
        && deserialize.converter() == Converter.None.class
        && deserialize.contentConverter() == Converter.None.class;
  }

  /** Interfaces (fabric8's {@code HasMetadata} and the like) with no annotation that would change decoding. */
  private static boolean interfacesAllowed(Class<?> raw, Class<?> of, Set<Class<?>> seen) {
    for (Class<?> type : of.getInterfaces()) {
      if (!seen.add(type)) {
        continue;
      }
      for (Annotation annotation : type.getAnnotations()) {
        // An interface's @JsonDeserialize is overridden by the class's own (plainClass requires it to name none).
        if (jackson(annotation)
            && !(annotation instanceof JsonDeserialize && raw.isAnnotationPresent(JsonDeserialize.class))
            && !(annotation instanceof JsonInclude || annotation instanceof JsonPropertyOrder
                || annotation instanceof JsonSerialize)) {
          return false;
        }
      }
      for (Method method : type.getDeclaredMethods()) {
        for (Annotation annotation : method.getAnnotations()) {
          if (jackson(annotation) && !(annotation instanceof JsonIgnore ignore && ignore.value())) {
            return false;
          }
        }
      }
      if (!interfacesAllowed(raw, type, seen)) {
        return false;
      }
    }
    return true;
  }

  private static boolean jackson(Annotation annotation) {
    var type = annotation.annotationType();
    var name = type.getName();
    return name.startsWith("com.fasterxml.jackson.")
        || name.startsWith("tools.jackson.")
        || type.isAnnotationPresent(JacksonAnnotationsInside.class);
  }

  /**
   * The names Jackson ignores on a class: its {@code @JsonIgnore}d fields and the bean names of its interfaces'
   * {@code @JsonIgnore}d accessors, less those that are properties (an explicit property wins over an ignored
   * accessor of the same name).
   */
  private static Set<String> namesIgnored(Class<?> raw, Set<String> ignoredFields, Set<String> properties) {
    var ignored = new HashSet<>(ignoredFields);
    var interfaces = new LinkedHashSet<Class<?>>();
    collectInterfaces(raw, interfaces);
    for (Class<?> type : interfaces) {
      for (Method method : type.getDeclaredMethods()) {
        if (method.isAnnotationPresent(JsonIgnore.class)) {
          var name = beanName(method);
          if (name != null) {
            ignored.add(name);
          }
        }
      }
    }
    ignored.removeAll(properties);
    return Set.copyOf(ignored);
  }

  private static void collectInterfaces(Class<?> raw, Set<Class<?>> into) {
    for (Class<?> type : raw.getInterfaces()) {
      if (into.add(type)) {
        collectInterfaces(type, into);
      }
    }
  }

  /** The property an accessor names by Jackson's default naming ({@code getURL} is {@code url}), or null. */
  private static @Nullable String beanName(Method method) {
    var name = method.getName();
    int params = method.getParameterCount();
    String rest;
    if (name.startsWith("get") && params == 0) {
      rest = name.substring(3);
    } else if (name.startsWith("is") && params == 0 && method.getReturnType() == boolean.class) {
      rest = name.substring(2);
    } else if (name.startsWith("set") && params == 1) {
      rest = name.substring(3);
    } else {
      return null;
    }
    if (rest.isEmpty()) {
      return null;
    }
    var chars = rest.toCharArray();
    for (int i = 0; i < chars.length && Character.isUpperCase(chars[i]); i++) {
      chars[i] = Character.toLowerCase(chars[i]);
    }
    return new String(chars);
  }

  /** One model class's deserializer: its properties by JSON name, ignored names, the any-setter. */
  static final class FieldDeserializer extends ValueDeserializer<Object> {

    private final JavaType type;
    private final BeanDescription.Supplier description;
    private final MethodHandle constructor;
    private final Map<String, Property> properties;
    private final Set<String> ignored;
    private final MethodHandle anySetter;
    private volatile @Nullable ValueDeserializer<Object> anyValues;
    private volatile @Nullable ValueDeserializer<Object> jacksons;

    private FieldDeserializer(
        JavaType type,
        BeanDescription.Supplier description,
        MethodHandle constructor,
        Map<String, Property> properties,
        Set<String> ignored,
        MethodHandle anySetter) {
      this.type = type;
      this.description = description;
      this.constructor = constructor;
      this.properties = properties;
      this.ignored = ignored;
      this.anySetter = anySetter;
    }

    /** The class's deserializer, or null if its fields are not fabric8's generated shape. */
    static @Nullable FieldDeserializer of(
        JavaType type, DeserializationConfig config, BeanDescription.Supplier description) {
      Class<?> raw = type.getRawClass();
      var lookup = MethodHandles.publicLookup();
      try {
        for (var constructor : raw.getDeclaredConstructors()) {
          for (Annotation annotation : constructor.getAnnotations()) {
            if (jackson(annotation)) {
              return null; // a @JsonCreator
            }
          }
        }
        var constructor = lookup.findConstructor(raw, MethodType.methodType(void.class))
            .asType(MethodType.methodType(Object.class));
        var properties = new HashMap<String, Property>();
        var ignoredFields = new HashSet<String>();
        MethodHandle anySetter = null;
        for (Field field : raw.getDeclaredFields()) {
          int modifiers = field.getModifiers();
          if (Modifier.isStatic(modifiers)) {
            continue;
          }
          if (Modifier.isTransient(modifiers) || field.isSynthetic()) {
            return null;
          }
          var property = field.getAnnotation(JsonProperty.class);
          var ignore = field.getAnnotation(JsonIgnore.class);
          for (Annotation annotation : field.getAnnotations()) {
            if (jackson(annotation)
                && !(annotation == property || annotation == ignore
                    || annotation instanceof JsonInclude || annotation instanceof JsonPropertyDescription)) {
              return null;
            }
          }
          if (ignore != null && property == null && ignore.value() && field.getName().equals(ADDITIONAL_PROPERTIES)) {
            anySetter = lookup.findVirtual(raw, "setAdditionalProperty",
                    MethodType.methodType(void.class, String.class, Object.class))
                .asType(MethodType.methodType(void.class, Object.class, String.class, Object.class));
            ignoredFields.add(field.getName());
            continue;
          }
          if (property == null || ignore != null || property.value().isEmpty()
              || property.access() != JsonProperty.Access.AUTO) {
            return null;
          }
          var setter = lookup.findVirtual(raw, setterName(field.getName()),
                  MethodType.methodType(void.class, field.getType()))
              .asType(MethodType.methodType(void.class, Object.class, Object.class));
          var javaType = config.getTypeFactory().constructType(field.getGenericType());
          if (properties.put(property.value(), new Property(javaType, setter)) != null) {
            return null;
          }
        }
        if (anySetter == null) {
          return null;
        }
        var mixedIn = mixInIgnored(config.findMixInClassFor(raw));
        properties.keySet().removeAll(mixedIn);
        var ignored = new HashSet<>(namesIgnored(raw, ignoredFields, properties.keySet()));
        ignored.addAll(mixedIn);
        return new FieldDeserializer(
            type, description, constructor, Map.copyOf(properties), Set.copyOf(ignored), anySetter);
      } catch (NoSuchMethodException | IllegalAccessException | SecurityException e) {
        return null; // not the generated shape: Jackson's way
      }
    }

    /** fabric8's setter of a field: {@code _continue} is set by {@code setContinue}. */
    private static String setterName(String field) {
      var name = field.startsWith("_") ? field.substring(1) : field;
      return "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) {
      String name;
      var token = p.currentToken();
      if (token == JsonToken.START_OBJECT) {
        name = p.nextName();
      } else if (token == JsonToken.PROPERTY_NAME) {
        name = p.currentName();
      } else if (token == JsonToken.END_OBJECT) {
        name = null;
      } else {
        return jacksons(ctxt).deserialize(p, ctxt);
      }
      if (ctxt.getActiveView() != null) {
        return jacksons(ctxt).deserialize(p, ctxt);
      }
      Object bean = construct(ctxt);
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

    private Object construct(DeserializationContext ctxt) {
      try {
        return (Object) constructor.invokeExact();
      } catch (Throwable e) {
        return ctxt.handleInstantiationProblem(type.getRawClass(), null, e);
      }
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
      if (!(e instanceof JacksonException) && e instanceof RuntimeException runtime
          && !ctxt.isEnabled(DeserializationFeature.WRAP_EXCEPTIONS)) {
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

  /** One property: the field's declared type and setter; its value deserializer found on first use. */
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
      }
      setter.invokeExact(bean, value);
    }
  }

  private record Values(ValueDeserializer<Object> deserializer, @Nullable TypeDeserializer typed) {}
}
