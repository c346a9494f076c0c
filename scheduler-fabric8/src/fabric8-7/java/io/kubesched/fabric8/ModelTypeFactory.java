package io.kubesched.fabric8;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.ClassStack;
import com.fasterxml.jackson.databind.type.TypeBindings;
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.databind.type.TypeModifier;
import com.fasterxml.jackson.databind.util.LRUMap;
import com.fasterxml.jackson.databind.util.LookupCache;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Jackson's type factory, except that a fabric8 model class's {@code Editable<XBuilder>} interface is read raw:
 * resolving its type argument loads {@code XBuilder} and {@code XFluent} for every model class whose type Jackson
 * constructs, which no deserializer reads ({@link ModelShape} says what that costs). A class with another generic
 * interface is resolved as Jackson resolves it. Jackson copies its type factory through {@code withModifier},
 * {@code withClassLoader} and {@code withCache}; each is overridden so that the copy stays this class. Immutable
 * and thread-safe as Jackson's.
 */
final class ModelTypeFactory extends TypeFactory {

  private static final long serialVersionUID = 1L;

  ModelTypeFactory() {
    super(new LRUMap<>(16, 200));
  }

  private ModelTypeFactory(LookupCache<Object, JavaType> cache, TypeModifier[] modifiers, ClassLoader loader) {
    super(cache, null, modifiers, loader);
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
  @SuppressWarnings("deprecation")
  public TypeFactory withCache(LRUMap<Object, JavaType> cache) {
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
