package io.kubesched.crd;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SchedulingPolicy}'s spec: one profile in {@code KubeSchedulerConfiguration}'s
 * ({@code kubescheduler.config.k8s.io/v1}) profile shape. What the profile leaves out gets kube-scheduler's
 * defaults, as in a configuration file.
 *
 * <p>The annotations become the CRD's schema; the API server checks it, this record does not (the controller's
 * parser checks the rest: plugin names, arguments, the extension points the library supports). Absent fields
 * are null and are left out of the JSON.
 *
 * @param schedulerName the profile this policy replaces: a {@code schedulerName} of the scheduler's configuration
 * @param percentageOfNodesToScore the share of feasible nodes to score, 0 to 100; 0 or null: kube-scheduler's
 *     adaptive share (a SchedulingPolicy does not inherit the configuration file's global value)
 * @param plugins the plugins to enable and disable at each extension point; null: the defaults
 * @param pluginConfig the plugins' arguments; null: none
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SchedulingPolicySpec(
    @Required
    @Size(min = 1, max = 253)
    @Pattern(SchedulingPolicySpec.DNS_SUBDOMAIN)
    @JsonPropertyDescription("The profile (spec.schedulerName of its pods) this policy replaces; it must be one "
        + "of the scheduler's configured profiles.")
    String schedulerName,
    @Min(0)
    @Max(100)
    @JsonPropertyDescription("The percentage of feasible nodes to score, 0 to 100; 0 or unset: kube-scheduler's "
        + "adaptive percentage.")
    @Nullable Integer percentageOfNodesToScore,
    @JsonPropertyDescription("The plugins enabled and disabled at each extension point, as in a "
        + "KubeSchedulerConfiguration profile; unset: kube-scheduler's defaults.")
    @Nullable Plugins plugins,
    @JsonPropertyDescription("Arguments of the plugins, by plugin name, as in a KubeSchedulerConfiguration "
        + "profile.")
    @Nullable List<PluginConfig> pluginConfig) {

  /**
   * A DNS subdomain (RFC 1123): what a scheduler name looks like. The API server matches patterns with Go's
   * regular expressions, which have no look-ahead: the length is a separate limit.
   */
  static final String DNS_SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

  /** A plugin name, or {@code *} (every default plugin, in a {@code disabled} list). */
  static final String PLUGIN_NAME = "^(\\*|[A-Za-z0-9][-A-Za-z0-9_.]*)$";

  /** Copies {@code pluginConfig}. */
  public SchedulingPolicySpec {
    pluginConfig = pluginConfig == null ? null : List.copyOf(pluginConfig);
  }

  /**
   * @param schedulerName the profile to replace
   * @return a spec that only names the profile: kube-scheduler's default plugins
   */
  public static SchedulingPolicySpec of(String schedulerName) {
    return new SchedulingPolicySpec(schedulerName, null, null, null);
  }

  /**
   * The plugins of each extension point, as {@code KubeSchedulerConfiguration}'s {@code plugins}. An extension
   * point left out keeps its defaults; {@code multiPoint} enables a plugin at every point it implements.
   *
   * @param preEnqueue {@code preEnqueue}
   * @param queueSort {@code queueSort}
   * @param preFilter {@code preFilter}
   * @param filter {@code filter}
   * @param postFilter {@code postFilter}
   * @param preScore {@code preScore}
   * @param score {@code score}: the only point where a weight counts
   * @param reserve {@code reserve}
   * @param permit {@code permit}
   * @param preBind {@code preBind}
   * @param bind {@code bind}
   * @param postBind {@code postBind}
   * @param multiPoint {@code multiPoint}
   * @param placementGenerate {@code placementGenerate}
   * @param placementScore {@code placementScore}
   * @param podGroupPostFilter {@code podGroupPostFilter}
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Plugins(
      @Nullable PluginSet preEnqueue,
      @Nullable PluginSet queueSort,
      @Nullable PluginSet preFilter,
      @Nullable PluginSet filter,
      @Nullable PluginSet postFilter,
      @Nullable PluginSet preScore,
      @Nullable PluginSet score,
      @Nullable PluginSet reserve,
      @Nullable PluginSet permit,
      @Nullable PluginSet preBind,
      @Nullable PluginSet bind,
      @Nullable PluginSet postBind,
      @Nullable PluginSet multiPoint,
      @Nullable PluginSet placementGenerate,
      @Nullable PluginSet placementScore,
      @Nullable PluginSet podGroupPostFilter) {

    /** No extension point set: every one keeps its defaults. */
    public static final Plugins DEFAULTS =
        new Plugins(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

    /**
     * @param set the plugins of {@code score}
     * @return these plugins with {@code score} set
     */
    public Plugins withScore(PluginSet set) {
      return new Plugins(preEnqueue, queueSort, preFilter, filter, postFilter, preScore, set, reserve, permit,
          preBind, bind, postBind, multiPoint, placementGenerate, placementScore, podGroupPostFilter);
    }

    /**
     * @param set the plugins of {@code multiPoint}
     * @return these plugins with {@code multiPoint} set
     */
    public Plugins withMultiPoint(PluginSet set) {
      return new Plugins(preEnqueue, queueSort, preFilter, filter, postFilter, preScore, score, reserve, permit,
          preBind, bind, postBind, set, placementGenerate, placementScore, podGroupPostFilter);
    }
  }

  /**
   * The plugins enabled and disabled at one extension point.
   *
   * @param enabled plugins enabled after the defaults, in this order; null: none
   * @param disabled default plugins disabled ({@code *}: all of them); null: none
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PluginSet(@Nullable List<Plugin> enabled, @Nullable List<Plugin> disabled) {

    /** Copies the lists. */
    public PluginSet {
      enabled = enabled == null ? null : List.copyOf(enabled);
      disabled = disabled == null ? null : List.copyOf(disabled);
    }
  }

  /**
   * A plugin named at an extension point.
   *
   * @param name the plugin's name, {@code *} for all (in {@code disabled})
   * @param weight its weight at {@code score} (0 or null: the plugin's default weight); ignored elsewhere
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Plugin(
      @Required
      @Pattern(SchedulingPolicySpec.PLUGIN_NAME)
      @JsonPropertyDescription("The plugin's name; * for all, in disabled.")
      String name,
      @Min(0)
      @Max(Integer.MAX_VALUE)
      @JsonPropertyDescription("The plugin's weight at score, 0 to 2147483647 (0 or unset: its default).")
      @Nullable Integer weight) {

    /**
     * @param name the plugin's name
     * @return the plugin with its default weight
     */
    public static Plugin named(String name) {
      return new Plugin(name, null);
    }
  }

  /**
   * A plugin's arguments, as {@code KubeSchedulerConfiguration}'s {@code pluginConfig[]}.
   *
   * @param name the plugin's name
   * @param args its arguments ({@code NodeResourcesFitArgs} and so on), free-form here: the controller's parser
   *     checks them; null: the plugin's defaults
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PluginConfig(
      @Required @Pattern(SchedulingPolicySpec.PLUGIN_NAME) @JsonPropertyDescription("The plugin's name.") String name,
      @PreserveUnknownFields
      @JsonPropertyDescription("The plugin's arguments (NodeResourcesFitArgs and so on), checked when applied.")
      @Nullable Map<String, @Nullable Object> args) {

    /** Copies {@code args} (one level deep: nested maps and lists are kept as given). */
    public PluginConfig {
      args = args == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(args));
    }
  }
}
