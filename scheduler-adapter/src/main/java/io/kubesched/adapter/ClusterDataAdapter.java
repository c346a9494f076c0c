package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.kubesched.api.ClusterData;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.api.WorkloadSelector.Kind;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The objects of a cluster snapshot beyond pods and nodes ({@link ClusterData}) read into the domain model, as
 * pure functions: a namespace into its labels; a Service, ReplicationController, ReplicaSet or StatefulSet
 * into its {@link WorkloadSelector}.
 *
 * <p>A workload selector is empty exactly where kube-scheduler's {@code DefaultSelector} takes nothing from
 * the object: a Service or ReplicationController whose {@code spec.selector} is unset or empty, a ReplicaSet
 * or StatefulSet whose {@code spec.selector} is unset, empty, or one Kubernetes cannot parse (an unknown
 * operator, {@code In} without values...), which kube-scheduler skips. Label syntax is not checked. Safe to
 * call from any thread; never returns {@code null}.
 */
public final class ClusterDataAdapter {

  private ClusterDataAdapter() {}

  /** @return the labels of {@code namespace}; empty if it has none */
  public static Map<String, String> namespaceLabels(Namespace namespace) {
    var meta = namespace.getMetadata();
    return meta == null ? Map.of() : SharedStrings.labels(meta.getLabels());
  }

  /**
   * @return the selector of {@code service} ({@code spec.selector} as {@code matchLabels}); empty if it has
   *     no selector or an empty one, which selects no pod for the scheduler's purposes
   */
  public static Optional<WorkloadSelector> workloadSelector(Service service) {
    var spec = service.getSpec();
    return labelMap(Kind.SERVICE, service, spec == null ? null : spec.getSelector());
  }

  /**
   * @return the selector of {@code controller} ({@code spec.selector} as {@code matchLabels}); empty if it has
   *     no selector or an empty one
   */
  public static Optional<WorkloadSelector> workloadSelector(ReplicationController controller) {
    var spec = controller.getSpec();
    return labelMap(Kind.REPLICATION_CONTROLLER, controller, spec == null ? null : spec.getSelector());
  }

  /**
   * @return the selector of {@code replicaSet}; empty if it has none, an empty one, or one Kubernetes cannot
   *     parse
   */
  public static Optional<WorkloadSelector> workloadSelector(ReplicaSet replicaSet) {
    var spec = replicaSet.getSpec();
    return labelSelector(Kind.REPLICA_SET, replicaSet, spec == null ? null : spec.getSelector());
  }

  /**
   * @return the selector of {@code statefulSet}; empty if it has none, an empty one, or one Kubernetes cannot
   *     parse
   */
  public static Optional<WorkloadSelector> workloadSelector(StatefulSet statefulSet) {
    var spec = statefulSet.getSpec();
    return labelSelector(Kind.STATEFUL_SET, statefulSet, spec == null ? null : spec.getSelector());
  }

  private static Optional<WorkloadSelector> labelMap(
      Kind kind, HasMetadata object, @Nullable Map<String, String> selector) {
    var labels = SharedStrings.labels(selector);
    return labels.isEmpty() ? Optional.empty() : Optional.of(of(kind, object, LabelSelector.of(labels)));
  }

  private static Optional<WorkloadSelector> labelSelector(
      Kind kind, HasMetadata object, io.fabric8.kubernetes.api.model.@Nullable LabelSelector selector) {
    LabelSelector read;
    try {
      read = LabelSelectors.read(selector, describe(kind, object), "spec.selector");
    } catch (MalformedObjectException e) {
      // kube-scheduler's DefaultSelector skips a selector it cannot parse.
      return Optional.empty();
    }
    return read == null || read.isEmpty() ? Optional.empty() : Optional.of(of(kind, object, read));
  }

  private static WorkloadSelector of(Kind kind, HasMetadata object, LabelSelector selector) {
    var meta = object.getMetadata();
    return meta == null
        ? new WorkloadSelector(kind, "", "", selector)
        : new WorkloadSelector(kind, orEmpty(meta.getNamespace()), orEmpty(meta.getName()), selector);
  }

  private static String describe(Kind kind, HasMetadata object) {
    var meta = object.getMetadata();
    var name = meta == null ? "/" : orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
    return kind.apiKind() + " " + name;
  }
}
