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
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A fabric8 model class as its generated code has it, read from its fields and never from its methods: its
 * properties by JSON name (the field's declared type and its setter), the names Jackson ignores on it, its
 * no-argument constructor and its {@code setAdditionalProperty}. Each fabric8 line's {@code ModelDeserializers}
 * decodes from it. Listing a class's methods ({@code getDeclaredMethods()}, which Jackson's bean introspection
 * does) makes the JVM load every method's return type, and a model class's {@code edit()} and {@code toBuilder()}
 * return its builder, whose superclass is its fluent: about 600 classes at 500 nodes that decoding never runs
 * (docs/performance.md, "The process, beside the heap"). Fields name only model types, and setters are found by
 * name and type through {@link MethodHandles.Lookup#findVirtual}, which resolves only that method.
 *
 * <p>{@link #of} gives a shape only for a class it knows to be generated as fabric8 generates its model, and
 * {@code null} for any other, which then stays Jackson's: a public concrete class of {@code
 * io.fabric8.kubernetes.api.model} or below, not generic, extending {@code Object}, with a public no-argument
 * constructor and no Jackson annotation on any constructor (a {@code @JsonCreator}); whose own Jackson
 * annotations are only {@code @JsonInclude}, {@code @JsonPropertyOrder}, {@code @JsonSerialize} and fabric8's
 * {@code @JsonDeserialize} that names no deserializer; whose interfaces carry nothing but those and {@code
 * @JsonIgnore} on methods; no mix-in but one that only ignores names (the lean serialization's {@code
 * WithoutManagedFields}); and whose every instance field is either a {@code @JsonProperty} (with at most {@code
 * @JsonInclude} and {@code @JsonPropertyDescription} beside it) that a public setter named after the field sets
 * with the field's type ({@code _continue} by {@code setContinue}), or the {@code @JsonIgnore}d {@code
 * additionalProperties} with a public {@code setAdditionalProperty(String, Object)}.
 *
 * <p>Two kinds of names are not properties. A mix-in's {@code @JsonIgnoreProperties} names are skipped by both
 * Jackson lines. The {@code @JsonIgnore}d accessors' names are {@code additionalProperties} (its field) and the
 * bean names of the interfaces' {@code @JsonIgnore}d accessors ({@code HasMetadata.getFinalizers} names {@code
 * finalizers}), unless a property has the name: Jackson 3 skips them, while Jackson 2, on a class with an
 * any-setter (every class with a shape), hands them to it like any unknown name. Immutable.
 *
 * @param constructor the public no-argument constructor, as {@code ()Object}
 * @param properties each property by its JSON name
 * @param ignored the names a mix-in ignores
 * @param ignoredAccessors the names of {@code @JsonIgnore}d accessors
 * @param anySetter {@code setAdditionalProperty}, as {@code (Object, String, Object)void}
 */
record ModelShape(
    MethodHandle constructor, Map<String, ModelShape.Property> properties, Set<String> ignored,
    Set<String> ignoredAccessors, MethodHandle anySetter) {

  /**
   * One property.
   *
   * @param type the field's declared type, generic arguments included
   * @param setter its setter, as {@code (Object, Object)void}
   */
  record Property(Type type, MethodHandle setter) {}

  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model.";

  private static final String ADDITIONAL_PROPERTIES = "additionalProperties";

  private static final String EDITABLE = "io.fabric8.kubernetes.api.builder.Editable";

  /**
   * @param raw a class Jackson is about to build a bean deserializer for
   * @param mixIn the mapper's mix-in for it, if any
   * @param namesNothing whether a class annotation is the line's {@code @JsonDeserialize} naming nothing
   * @return its shape, or {@code null} if it is not a generated model class of the known shape
   */
  static @Nullable ModelShape of(Class<?> raw, @Nullable Class<?> mixIn, Predicate<Annotation> namesNothing) {
    if (!raw.getName().startsWith(MODEL_PACKAGE) || !plainClass(raw) || !namesOnlyMixIn(mixIn)
        || !allowedClassAnnotations(raw.getAnnotations(), namesNothing)) {
      return null;
    }
    var interfaceIgnored = interfaceIgnored(raw);
    if (interfaceIgnored == null) {
      return null;
    }
    var lookup = MethodHandles.publicLookup();
    try {
      for (var constructor : raw.getDeclaredConstructors()) {
        for (Annotation annotation : constructor.getAnnotations()) {
          if (jackson(annotation)) {
            return null;
          }
        }
      }
      var constructor = lookup.findConstructor(raw, MethodType.methodType(void.class))
          .asType(MethodType.methodType(Object.class));
      var properties = new HashMap<String, Property>();
      var ignored = new HashSet<String>();
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
          if (jackson(annotation) && annotation != property && annotation != ignore
              && !(annotation instanceof JsonInclude) && !(annotation instanceof JsonPropertyDescription)) {
            return null;
          }
        }
        if (ignore != null && ignore.value() && property == null && field.getName().equals(ADDITIONAL_PROPERTIES)) {
          anySetter = lookup.findVirtual(raw, "setAdditionalProperty",
                  MethodType.methodType(void.class, String.class, Object.class))
              .asType(MethodType.methodType(void.class, Object.class, String.class, Object.class));
          ignored.add(ADDITIONAL_PROPERTIES);
          continue;
        }
        if (property == null || ignore != null || property.value().isEmpty()
            || property.access() != JsonProperty.Access.AUTO) {
          return null;
        }
        var setter = lookup.findVirtual(raw, setterName(field.getName()),
                MethodType.methodType(void.class, field.getType()))
            .asType(MethodType.methodType(void.class, Object.class, Object.class));
        if (properties.put(property.value(), new Property(field.getGenericType(), setter)) != null) {
          return null;
        }
      }
      if (anySetter == null) {
        return null;
      }
      ignored.addAll(interfaceIgnored);
      ignored.removeAll(properties.keySet());
      var mixedIn = mixInIgnored(mixIn);
      properties.keySet().removeAll(mixedIn);
      ignored.removeAll(mixedIn);
      return new ModelShape(constructor, Map.copyOf(properties), mixedIn, Set.copyOf(ignored), anySetter);
    } catch (NoSuchMethodException | IllegalAccessException | SecurityException e) {
      return null; // not the generated shape: Jackson's way
    }
  }

  /**
   * Whether a type factory may read {@code raw}'s interfaces raw: one of them is fabric8's {@code Editable} (whose
   * type argument, the class's builder, reifying the generic interfaces would load) and none other is generic, so
   * no type argument anything reads is lost. Each line's {@code ModelTypeFactory} asks it.
   */
  static boolean interfacesReadRaw(Class<?> raw) {
    boolean editable = false;
    for (Class<?> type : raw.getInterfaces()) {
      if (type.getName().equals(EDITABLE)) {
        editable = true;
      } else if (type.getTypeParameters().length > 0) {
        return false;
      }
    }
    return editable;
  }

  private static boolean plainClass(Class<?> raw) {
    int modifiers = raw.getModifiers();
    return Modifier.isPublic(modifiers)
        && !Modifier.isAbstract(modifiers)
        && !raw.isInterface()
        && !raw.isEnum()
        && !raw.isRecord()
        && raw.getSuperclass() == Object.class
        && raw.getTypeParameters().length == 0;
  }

  /** No mix-in, or an empty class whose only annotation ignores some names ({@code WithoutManagedFields}). */
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

  private static Set<String> mixInIgnored(@Nullable Class<?> mixIn) {
    return mixIn == null ? Set.of() : Set.of(mixIn.getAnnotation(JsonIgnoreProperties.class).value());
  }

  private static boolean allowedClassAnnotations(Annotation[] annotations, Predicate<Annotation> namesNothing) {
    for (Annotation annotation : annotations) {
      if (jackson(annotation) && !namesNothing.test(annotation) && !harmless(annotation)) {
        return false;
      }
    }
    return true;
  }

  /** Class annotations that do not change decoding. */
  private static boolean harmless(Annotation annotation) {
    return annotation instanceof JsonInclude
        || annotation instanceof JsonPropertyOrder
        || annotation.annotationType().getSimpleName().equals("JsonSerialize");
  }

  private static boolean jackson(Annotation annotation) {
    var type = annotation.annotationType();
    var name = type.getName();
    return name.startsWith("com.fasterxml.jackson.")
        || name.startsWith("tools.jackson.")
        || type.isAnnotationPresent(JacksonAnnotationsInside.class);
  }

  /**
   * The bean names of the {@code @JsonIgnore}d accessors of {@code raw}'s interfaces (fabric8's {@code HasMetadata}
   * and the like), or null if one of them has another annotation that changes decoding. A {@code @JsonDeserialize}
   * on one ({@code KubernetesResource}'s) is overridden by the class's own.
   */
  private static @Nullable Set<String> interfaceIgnored(Class<?> raw) {
    var interfaces = new LinkedHashSet<Class<?>>();
    collectInterfaces(raw, interfaces);
    var ignored = new HashSet<String>();
    for (Class<?> type : interfaces) {
      for (Annotation annotation : type.getAnnotations()) {
        boolean overridden = annotation.annotationType().getSimpleName().equals("JsonDeserialize")
            && raw.isAnnotationPresent(annotation.annotationType());
        if (jackson(annotation) && !overridden && !harmless(annotation)) {
          return null;
        }
      }
      for (Method method : type.getDeclaredMethods()) {
        for (Annotation annotation : method.getAnnotations()) {
          if (!jackson(annotation)) {
            continue;
          }
          if (!(annotation instanceof JsonIgnore ignore && ignore.value())) {
            return null;
          }
          var name = beanName(method);
          if (name != null) {
            ignored.add(name);
          }
        }
      }
    }
    return ignored;
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

  /** fabric8's setter of a field: {@code _continue} is set by {@code setContinue}. */
  private static String setterName(String field) {
    var name = field.startsWith("_") ? field.substring(1) : field;
    return "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}
