package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.Scorer;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Plugins of one's own that a KubeSchedulerConfiguration may enable by name, as kube-scheduler's out-of-tree
 * plugins are (its {@code app.WithPlugin(name, factory)} and a {@code frameworkruntime.Registry}): each a {@link
 * Filter} or a {@link Scorer} under a name, with the Java record its {@code pluginConfig[].args} are read into and a
 * factory that makes the plugin from those arguments.
 *
 * <pre>{@code
 * record DrainingArgs(@Nullable String label) {            // pluginConfig: [{name: AvoidDraining, args: {label: ...}}]
 *   DrainingArgs {
 *     label = label == null ? "example.com/draining" : label;   // defaults and checks in the compact constructor
 *   }
 * }
 * PluginRegistry plugins = PluginRegistry.empty()
 *     .filter("AvoidDraining", DrainingArgs.class, AvoidDraining::new)
 *     .scorer("PreferSpot", SpotArgs.class, PreferSpot::new);
 * SchedulerConfiguration config = SchedulerConfiguration.read(Path.of("config.yaml"), plugins);
 * }</pre>
 *
 * <p>A profile enables a registered plugin as it enables kube's: {@code plugins.filter.enabled} (a filter), {@code
 * plugins.score.enabled} with a {@code weight} (a scorer), or {@code plugins.multiPoint.enabled}, which puts it at
 * the points it implements; none is on unless enabled (kube's defaults never name one). A name registered both as
 * a filter and a scorer, with the same arguments type, is one plugin at both points. Its filter runs after kube's
 * filters and its score is weighed with theirs. A name kube-scheduler 1.37 does not have and nothing registered is
 * refused, listing both kinds of names.
 *
 * <p>Arguments: the entry's {@code args} object is read into the record with Jackson, strictly as kube decodes its
 * own: a field the record does not have is refused naming it, a value of the wrong type (a string for a number, a
 * fraction for an integer) is refused naming its path. A field left out is {@code null} (or 0, false for a
 * primitive component): the record's compact constructor gives defaults there, and checks, throwing {@link
 * IllegalArgumentException} with a message that becomes the configuration error. Without a {@code pluginConfig}
 * entry the record is read from an empty object. The factory is called once per profile that enables the plugin
 * (also where a {@code SchedulingPolicy} custom resource changes that profile); a factory that throws {@link
 * IllegalArgumentException} refuses the arguments the same way. The plugin is used under the registered name
 * whatever its {@code name()} says, keeping what else it implements ({@link io.kubesched.policy.framework.PreFilter},
 * {@link io.kubesched.policy.framework.PreScorer}, {@link io.kubesched.policy.framework.ScoreNormalizer}); it must be
 * pure and thread-safe, as every filter and scorer is.
 *
 * <p>On the module path, the package of an arguments record must be open to {@code tools.jackson.databind} ({@code
 * opens my.plugins to tools.jackson.databind;}), so that Jackson can call its constructor.
 *
 * <p>Immutable and thread-safe: each registration returns a new registry, the receiver is unchanged.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class PluginRegistry {

  private static final PluginRegistry EMPTY = new PluginRegistry(Map.of());

  // kube decodes plugin arguments as Go's JSON does: no unknown field, and no scalar of one type read as another
  // (a number for a string, a string for a number or a boolean, 1.5 for an integer).
  private static final JsonMapper ARGS =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .withCoercionConfig(LogicalType.Textual, strict(CoercionInputShape.Integer, CoercionInputShape.Float,
              CoercionInputShape.Boolean))
          .withCoercionConfig(LogicalType.Integer, strict(CoercionInputShape.String, CoercionInputShape.Float,
              CoercionInputShape.Boolean))
          .withCoercionConfig(LogicalType.Float, strict(CoercionInputShape.String, CoercionInputShape.Boolean))
          .withCoercionConfig(LogicalType.Boolean, strict(CoercionInputShape.String, CoercionInputShape.Integer,
              CoercionInputShape.Float))
          .build();

  private final Map<String, Registered<?>> plugins;

  private static Consumer<MutableCoercionConfig> strict(CoercionInputShape... shapes) {
    return config -> {
      for (var shape : shapes) {
        config.setCoercion(shape, CoercionAction.Fail);
      }
    };
  }

  private PluginRegistry(Map<String, Registered<?>> plugins) {
    this.plugins = plugins;
  }

  /** @return a registry with no plugin: a configuration read with it knows kube-scheduler's plugins only */
  public static PluginRegistry empty() {
    return EMPTY;
  }

  /**
   * Registers a filter.
   *
   * @param name the name a profile enables it by; not one of kube-scheduler 1.37's plugins (nor one kube removed),
   *     not blank, no white space, not {@code "*"}
   * @param argsType the record its {@code pluginConfig[].args} are read into
   * @param factory makes the filter from its arguments; may throw {@link IllegalArgumentException} to refuse them
   * @param <A> the arguments' type
   * @return a registry with the filter added
   * @throws IllegalArgumentException if {@code name} is not a valid name, is kube-scheduler's, is already a filter
   *     here, or is a scorer here with another arguments type; or if {@code argsType} is not a record
   */
  public <A extends Record> PluginRegistry filter(
      String name, Class<A> argsType, Function<? super A, ? extends Filter> factory) {
    Objects.requireNonNull(factory, "factory");
    return add(name, argsType, factory, null);
  }

  /**
   * Registers a scorer; a profile gives its weight.
   *
   * @param name as {@link #filter}'s
   * @param argsType the record its {@code pluginConfig[].args} are read into
   * @param factory makes the scorer from its arguments; may throw {@link IllegalArgumentException} to refuse them
   * @param <A> the arguments' type
   * @return a registry with the scorer added
   * @throws IllegalArgumentException as {@link #filter} does, with filter and scorer swapped
   */
  public <A extends Record> PluginRegistry scorer(
      String name, Class<A> argsType, Function<? super A, ? extends Scorer> factory) {
    Objects.requireNonNull(factory, "factory");
    return add(name, argsType, null, factory);
  }

  /** @return the registered names, sorted */
  public Set<String> names() {
    return Collections.unmodifiableSet(plugins.keySet());
  }

  /** @return whether nothing is registered */
  public boolean isEmpty() {
    return plugins.isEmpty();
  }

  @Override
  public String toString() {
    var text = new StringBuilder("PluginRegistry[");
    var first = true;
    for (var plugin : plugins.values()) {
      text.append(first ? "" : ", ").append(plugin);
      first = false;
    }
    return text.append(']').toString();
  }

  /** @return the plugin registered as {@code name}; null if none is */
  @Nullable Registered<?> get(String name) {
    return plugins.get(name);
  }

  private <A extends Record> PluginRegistry add(
      String name,
      Class<A> argsType,
      @Nullable Function<? super A, ? extends Filter> filter,
      @Nullable Function<? super A, ? extends Scorer> scorer) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(argsType, "argsType");
    var kind = filter != null ? "filter" : "scorer";
    if (name.isBlank() || name.chars().anyMatch(Character::isWhitespace) || name.equals(PluginSets.ALL)) {
      throw new IllegalArgumentException(
          "a plugin name must not be blank, hold white space or be \"*\"; was \"" + name + "\"");
    }
    if (KubePlugins.get(name).isPresent() || KubePlugins.REMOVED.contains(name)) {
      throw new IllegalArgumentException("cannot register the " + kind + " " + name + ": " + name
          + " is a kube-scheduler plugin's name, which configuration files mean kube's plugin by; choose another");
    }
    if (!argsType.isRecord()) {
      throw new IllegalArgumentException("the arguments type of the " + kind + " " + name + " must be a record,"
          + " was " + argsType.getName());
    }
    var earlier = plugins.get(name);
    Registered<A> added;
    if (earlier == null) {
      added = new Registered<>(name, argsType, filter, scorer);
    } else {
      if ((filter != null && earlier.filter != null) || (scorer != null && earlier.scorer != null)) {
        throw new IllegalArgumentException(name + " is already registered as a " + kind);
      }
      if (!earlier.argsType.equals(argsType)) {
        throw new IllegalArgumentException("cannot register the " + kind + " " + name + " with arguments "
            + argsType.getName() + ": it is registered as a " + (earlier.filter != null ? "filter" : "scorer")
            + " with arguments " + earlier.argsType.getName() + ", and one plugin has one arguments type");
      }
      @SuppressWarnings("unchecked") // the same arguments type, checked above
      var same = (Registered<A>) earlier;
      added = new Registered<>(name, argsType, filter != null ? filter : same.filter,
          scorer != null ? scorer : same.scorer);
    }
    var copy = new TreeMap<String, Registered<?>>(plugins);
    copy.put(name, added);
    return new PluginRegistry(Collections.unmodifiableMap(copy));
  }

  /**
   * One registered plugin: its arguments type and what it implements.
   *
   * @param <A> its arguments' type
   */
  static final class Registered<A extends Record> {
    private final String name;
    private final Class<A> argsType;
    private final @Nullable Function<? super A, ? extends Filter> filter;
    private final @Nullable Function<? super A, ? extends Scorer> scorer;

    private Registered(
        String name,
        Class<A> argsType,
        @Nullable Function<? super A, ? extends Filter> filter,
        @Nullable Function<? super A, ? extends Scorer> scorer) {
      this.name = name;
      this.argsType = argsType;
      this.filter = filter;
      this.scorer = scorer;
    }

    /** @return the extension points a profile may enable it at */
    Set<ExtensionPoint> points() {
      var points = EnumSet.noneOf(ExtensionPoint.class);
      if (filter != null) {
        points.add(ExtensionPoint.FILTER);
      }
      if (scorer != null) {
        points.add(ExtensionPoint.SCORE);
      }
      return Collections.unmodifiableSet(points);
    }

    /**
     * Reads its arguments.
     *
     * @param args the entry's {@code args} object
     * @param path its YAML path, for messages
     * @throws ConfigurationException naming the path (and the field) if they are not the record's
     */
    A args(JsonNode args, String path, TreeReader reader) {
      if (!args.isObject()) {
        throw reader.error(path, "must be an object, was " + TreeReader.describe(args));
      }
      try {
        return Objects.requireNonNull(ARGS.treeToValue(args, argsType));
      } catch (UnrecognizedPropertyException e) {
        var known = new TreeSet<String>();
        if (e.getKnownPropertyIds() != null) {
          e.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
        }
        throw reader.error(where(path, e), "is not a known field of " + name + "'s arguments; valid: " + known);
      } catch (ValueInstantiationException e) {
        var cause = e.getCause() != null ? e.getCause() : e;
        throw reader.error(path, "is invalid for " + name + ": " + cause.getMessage());
      } catch (DatabindException e) {
        throw reader.error(where(path, e), "cannot be read into " + name + "'s arguments: " + e.getOriginalMessage());
      } catch (JacksonException e) {
        throw reader.error(path, "cannot be read into " + name + "'s arguments: " + e.getOriginalMessage());
      }
    }

    /** @return the filter, under the registered name; throws if this is no filter */
    Filter filter(A args, String path, TreeReader reader) {
      var made = make(Objects.requireNonNull(filter, "not a filter"), args, path, reader);
      return Renamed.filter(name, made);
    }

    /** @return the scorer, under the registered name; throws if this is no scorer */
    Scorer scorer(A args, String path, TreeReader reader) {
      var made = make(Objects.requireNonNull(scorer, "not a scorer"), args, path, reader);
      return Renamed.scorer(name, made);
    }

    /** @return {@code args} as its arguments; they were read by {@link #args} */
    A cast(Record args) {
      return argsType.cast(args);
    }

    private <P> P make(Function<? super A, ? extends P> factory, A args, String path, TreeReader reader) {
      P made;
      try {
        made = factory.apply(args);
      } catch (IllegalArgumentException e) {
        throw reader.error(path, "is invalid for " + name + ": " + e.getMessage());
      }
      if (made == null) {
        throw new IllegalStateException("the factory of the plugin " + name + " returned null for " + args);
      }
      return made;
    }

    private static String where(String path, DatabindException e) {
      var where = new StringBuilder(path);
      for (var reference : e.getPath()) {
        if (reference.getPropertyName() != null) {
          where.append('.').append(reference.getPropertyName());
        } else if (reference.getIndex() >= 0) {
          where.append('[').append(reference.getIndex()).append(']');
        }
      }
      return where.toString();
    }

    @Override
    public String toString() {
      var kinds = filter != null && scorer != null ? "filter and scorer" : filter != null ? "filter" : "scorer";
      return name + " (" + kinds + ", " + argsType.getSimpleName() + ")";
    }
  }
}
