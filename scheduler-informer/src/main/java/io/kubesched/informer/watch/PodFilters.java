package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.engine.QueuedPod;
import java.util.Map;

/**
 * What the informer handlers sort pods by. Field selectors only narrow what the server sends (and a server
 * may ignore them), so every handler checks again here.
 */
final class PodFilters {

  private PodFilters() {}

  /** @return whether {@code pod} has finished and holds no resources ({@code Succeeded} or {@code Failed}) */
  static boolean isTerminal(Pod pod) {
    var phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** @return the node {@code pod} is bound to, or the empty string */
  static String nodeName(Pod pod) {
    var spec = pod.getSpec();
    var node = spec == null ? null : spec.getNodeName();
    return node == null ? "" : node;
  }

  /** @return whether {@code pod} is bound to a node */
  static boolean isAssigned(Pod pod) {
    return !nodeName(pod).isEmpty();
  }

  /** @return whether {@code pod} is being deleted */
  static boolean isDeleting(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  /**
   * @return whether {@code schedulerName} should place {@code pod}: it asks for that scheduler, is not yet
   *     bound, is not being deleted and has not finished
   */
  static boolean needsScheduling(Pod pod, String schedulerName) {
    return !isAssigned(pod)
        && !isDeleting(pod)
        && !isTerminal(pod)
        && schedulerName.equals(PodAdapter.schedulerName(pod));
  }

  /** @return whether {@code pod} takes resources on a node: bound and not finished */
  static boolean occupiesNode(Pod pod) {
    return isAssigned(pod) && !isTerminal(pod);
  }

  /**
   * The queue entry for {@code pod}: its uid, namespace, name, priority, scheduler name and whether it has
   * scheduling gates.
   *
   * @throws IllegalArgumentException if the pod has no uid or no name
   */
  static QueuedPod queueEntry(Pod pod) {
    var metadata = pod.getMetadata();
    var spec = pod.getSpec();
    Integer priority = spec == null ? null : spec.getPriority();
    return new QueuedPod(
        metadata.getUid(),
        namespace(pod),
        metadata.getName(),
        priority == null ? 0 : priority,
        PodAdapter.schedulerName(pod),
        spec != null && spec.getSchedulingGates() != null && !spec.getSchedulingGates().isEmpty());
  }

  /** @return the object's namespace, or the empty string for a cluster-scoped one */
  static String namespace(HasMetadata object) {
    var namespace = object.getMetadata().getNamespace();
    return namespace == null ? "" : namespace;
  }

  /** @return the object's labels, empty when it has none */
  static Map<String, String> labels(HasMetadata object) {
    var labels = object.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
