package io.kubesched.fabric8;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.type.ClassStack;
import tools.jackson.databind.type.TypeBindings;
import tools.jackson.databind.type.TypeFactory;
import tools.jackson.databind.type.TypeModifier;
import tools.jackson.databind.util.LookupCache;
import tools.jackson.databind.util.SimpleLookupCache;

/**
 * Jackson's type factory, except that a fabric8 model class's {@code Editable<XBuilder>} interface is read raw.
 * Resolving the type argument loads {@code XBuilder} and its superclass {@code XFluent} for every model class
 * whose type Jackson constructs: about 600 classes and 7 MiB of the class-data archive at 500 nodes, none of
 * which decoding runs (docs/performance.md, "The process, beside the heap"). No deserializer reads that
 * interface's type argument; a class with another generic interface is resolved as Jackson resolves it.
 *
 * <p>Jackson copies its type factory through {@code snapshot}, {@code withModifier}, {@code withClassLoader} and
 * {@code withCache}; each is overridden so that the copy stays this class. Immutable and thread-safe as Jackson's.
 */
final class ModelTypeFactory extends TypeFactory {

  private static final long serialVersionUID = 1L;

  ModelTypeFactory() {
    super(new SimpleLookupCache<>(16, DEFAULT_MAX_CACHE_SIZE));
  }

  private ModelTypeFactory(LookupCache<Object, JavaType> cache, TypeModifier[] modifiers, ClassLoader loader) {
    super(cache, modifiers, loader);
  }

  @Override
  public TypeFactory snapshot() {
    return new ModelTypeFactory(_typeCache.snapshot(), _modifiers, _classLoader);
  }

  @Override
  public TypeFactory withModifier(TypeModifier modifier) {
    List<TypeModifier> modifiers = new ArrayList<>();
    if (_modifiers != null) {
      modifiers.addAll(Arrays.asList(_modifiers));
    }
    modifiers.add(modifier);
    return new ModelTypeFactory(_typeCache.emptyCopy(), modifiers.toArray(new TypeModifier[0]), _classLoader);
  }

  @Override
  public TypeFactory withClassLoader(ClassLoader loader) {
    return new ModelTypeFactory(_typeCache.emptyCopy(), _modifiers, loader);
  }

  @Override
  public TypeFactory withCache(LookupCache<Object, JavaType> cache) {
    return new ModelTypeFactory(cache, _modifiers, _classLoader);
  }

  @Override
  protected JavaType[] _resolveSuperInterfaces(ClassStack context, Class<?> rawType, TypeBindings bindings) {
    if (!ModelShape.interfacesReadRaw(rawType)) {
      return super._resolveSuperInterfaces(context, rawType, bindings);
    }
    Class<?>[] interfaces = rawType.getInterfaces();
    var resolved = new JavaType[interfaces.length];
    for (int i = 0; i < interfaces.length; i++) {
      resolved[i] = _fromAny(context, interfaces[i], bindings);
    }
    return resolved;
  }
}
