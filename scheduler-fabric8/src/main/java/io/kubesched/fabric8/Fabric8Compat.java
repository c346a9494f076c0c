package io.kubesched.fabric8;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Everything the library does differently on fabric8 7 (Jackson 2) and fabric8 8 (Jackson 3), so that every
 * other module compiles to the same class files against either line and ships as one jar for both.
 *
 * <p>This module is built twice from one source tree: {@code src/main/java} (this interface, shared) plus {@code
 * src/fabric8-8/java} as {@code io.kubesched:scheduler-fabric8:X}, and plus {@code src/fabric8-7/java} as {@code
 * X-fabric8.7}; a user's BOM picks the one that matches the fabric8 on the class path. Its methods name only
 * types whose binary names are the same on both lines (fabric8's model, {@code Config}, {@code
 * KubernetesSerialization}, {@code HttpClient}; never a Jackson type), which is what keeps the callers
 * line-neutral; {@code scripts/check-fabric8-neutral.py} checks that the callers' class files are indeed
 * identical. The two lines' model differ in fields newer than fabric8 7's: on 8 they are typed properties, on
 * 7 fabric8 keeps them as {@code additionalProperties}, and the accessors here read and write them there.
 *
 * <p>Implementations are stateless and thread-safe. Internal: not for use outside the library.
 */
public interface Fabric8Compat {

  /** @return the one implementation of the line this jar was built for */
  static Fabric8Compat get() {
    return Fabric8CompatImpl.INSTANCE;
  }

  /** @return the fabric8 version this jar was compiled against, as the build wrote it */
  default String builtFor() {
    return Fabric8Line.builtFor();
  }

  /** {@code serialization} with {@code kinds} registered, in their order. */
  static <S extends KubernetesSerialization> S registering(
      S serialization, List<Class<? extends KubernetesResource>> kinds) {
    kinds.forEach(serialization::registerKubernetesResource);
    return serialization;
  }

  /** @return the binary name of the Jackson {@code ObjectMapper} this line's fabric8 decodes with */
  String jacksonMapperClass();

  /**
   * The scheduling loop's lean serialization: fabric8's default mapper settings, {@code metadata.managedFields}
   * ignored both ways, only {@code kinds} registered (no class-path search), a watch event decoded in one
   * pass straight from the string the watch received, and (fabric8 8) the model decoded from its fields, so
   * that Jackson loads none of its builders; decoding gives what fabric8's own gives.
   *
   * @param kinds the kinds decoded by class, the first ones first
   * @return a new serialization
   */
  KubernetesSerialization leanSerialization(List<Class<? extends KubernetesResource>> kinds);

  /**
   * fabric8's decoding as the lean serialization would be without its one-pass watch events: the same mapper
   * settings, {@code managedFields} ignored, {@code kinds} registered. The reference the lean one is tested
   * against.
   */
  KubernetesSerialization referenceSerialization(List<Class<? extends KubernetesResource>> kinds);

  /** @return a serialization with fabric8's default mapper settings that searches no class path */
  KubernetesSerialization plainSerialization();

  /**
   * @return fabric8's factory for the JDK HTTP client with the JDK client's internal tasks run where they are
   *     submitted, instead of on a thread pool (why: {@code KubeConnections})
   */
  HttpClient.Factory inlineJdkHttpClientFactory();

  /**
   * @return the server name for TLS's SNI the configuration asks for, or {@code null} (always on fabric8 7.5, which
   *     has no such setting)
   */
  @Nullable String tlsServerName(Config config);

  /**
   * @return the pod's {@code spec.schedulingGroup.podGroupName} read from the typed field (empty if the group
   *     has no name); empty optional if the typed field is unset or the line's model has none, where the value
   *     (if any) is in {@code spec.additionalProperties}
   */
  Optional<String> typedSchedulingGroupName(PodSpec spec);

  /** @return the typed {@code spec.schedulingGroup}, or {@code null} if unset or the line's model has none */
  @Nullable Object schedulingGroup(PodSpec spec);

  /** Sets the typed {@code spec.schedulingGroup} to one {@link #schedulingGroup} returned; a no-op where none. */
  void setSchedulingGroup(PodSpec spec, @Nullable Object group);

  /**
   * @return {@code status.allocatedResources}, or {@code null} if unset; on fabric8 7 read from the additional
   *     properties, a value that is not a string or number kept as its text (so that the quantity's reader
   *     rejects it, naming the field)
   */
  @Nullable Map<String, Quantity> allocatedResources(PodStatus status);

  /** Sets {@code status.allocatedResources} where {@link #allocatedResources} reads it. */
  void setAllocatedResources(PodStatus status, @Nullable Map<String, Quantity> allocated);

  /** @return {@code status.resources}, or {@code null} if unset; on fabric8 7 its requests only */
  @Nullable ResourceRequirements resources(PodStatus status);

  /** Sets {@code status.resources} where {@link #resources} reads it. */
  void setResources(PodStatus status, @Nullable ResourceRequirements resources);

  /**
   * @return the node's {@code status.declaredFeatures}, or {@code null} if unset; on fabric8 7 read from the
   *     additional properties, each entry as its text
   */
  @Nullable List<String> declaredFeatures(NodeStatus status);

  /** Sets {@code status.declaredFeatures} where {@link #declaredFeatures} reads it. */
  void setDeclaredFeatures(NodeStatus status, @Nullable List<String> features);

  /**
   * @return the mount's {@code bindMountOptions}, or {@code null} if unset; on fabric8 7 read from the additional
   *     properties, each entry as its text
   */
  @Nullable List<String> bindMountOptions(VolumeMount mount);

  /** Sets {@code bindMountOptions} where {@link #bindMountOptions} reads it. */
  void setBindMountOptions(VolumeMount mount, @Nullable List<String> options);

  /**
   * @return the {@code action} of each of the container's {@code restartPolicyRules}, in order ({@code null} for a
   *     rule without one); empty if it has none; on fabric8 7.4, whose model has no such field, read from the
   *     additional properties
   */
  List<@Nullable String> restartRuleActions(Container container);

  /**
   * Sets {@code to}'s {@code restartPolicyRules} to {@code from}'s (the same list), where {@link #restartRuleActions}
   * reads them; nothing if {@code from} has none.
   */
  void copyRestartPolicyRules(Container from, Container to);

  /** Empties the lists of the line's model the scheduler never reads (their defaults cost memory per pod). */
  void clearUnread(PodSpec spec);

  /** Empties the lists of the line's model the scheduler never reads. */
  void clearUnread(PodStatus status);

  /**
   * Empties the lists of the line's model that are unset on a new object and cost memory (its declared features:
   * {@link #setDeclaredFeatures} sets them afterwards).
   */
  void clearUnread(NodeStatus status);

  /**
   * Empties the lists of the line's model that are unset on a new object and cost memory (its restart policy rules:
   * {@link #copyRestartPolicyRules} copies them afterwards; fabric8 7.4 has none).
   */
  void clearUnread(Container container);

  /**
   * The alpha fields of kube 1.37's {@code resource.k8s.io/v1} (off by default there, so an API server serves
   * them only with the gate on) that this line's model types, set on {@code model}. The adapter refuses an object
   * that sets one rather than placing as if it were absent; a field the line does not type arrives in the
   * object's additional properties, which the adapter checks itself.
   *
   * @param model a {@code io.fabric8.kubernetes.api.model.resource.v1} object (a slice's spec, a device, an
   *     attribute, a counter consumption, a request or sub-request, an allocation result entry); anything else
   *     has none
   * @return the JSON names of the alpha fields set, empty if none; always empty on fabric8 7, whose model types
   *     none of them
   */
  List<String> draAlphaFields(Object model);
}
