package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Objects;

/**
 * Turns the cluster events that only some waiting pods care about into targeted moves of the {@link
 * SchedulingQueue}, as the queueing hints of kube-scheduler's InterPodAffinity and PodTopologySpread
 * plugins do; each asks the pods' {@link QueueingHint}s. The events that can help any pod (a node added or
 * changed, a bound pod removed) still move every waiting pod, through {@link
 * SchedulingQueue#moveAllToActiveOrBackoff}.
 *
 * <p>Called from the informers' handler threads; never blocks beyond the queue's lock.
 */
final class ClusterEventMoves {

  private final SchedulingQueue queue;

  ClusterEventMoves(SchedulingQueue queue) {
    this.queue = Objects.requireNonNull(queue, "queue");
  }

  /**
   * A pod was bound, by anyone (kube's AssignedPod/Add): it may complete a waiting pod's required pod
   * affinity, or change a spread constraint's counts. Looks only at the waiting pods that have such
   * constraints, so a stream of bindings costs nothing while none waits.
   */
  void assignedPodAdded(Pod pod) {
    var namespace = namespace(pod);
    var labels = labels(pod);
    queue.moveWaitingForPods("AssignedPodAdd", hint -> hint.movedByAssignedPodAdded(namespace, labels));
  }

  /**
   * A bound pod was updated (kube's AssignedPod/UpdatePodLabel): only a change of its labels can help.
   *
   * @param oldPod the pod before, as the informer's store kept it (labels are kept)
   */
  void assignedPodUpdated(Pod oldPod, Pod pod) {
    var before = labels(oldPod);
    var after = labels(pod);
    if (before.equals(after)) {
      return;
    }
    var namespace = namespace(pod);
    queue.moveWaitingForPods(
        "AssignedPodUpdate", hint -> hint.movedByAssignedPodRelabelled(namespace, before, after));
  }

  /** A node was deleted (kube's PodTopologySpread Node/Delete): a topology domain may be gone. */
  void nodeDeleted(Node node) {
    var labels = labels(node);
    queue.moveUnschedulableIf("NodeDelete", (pod, hint) -> hint.movedByNodeDeleted(labels));
  }

  /** A namespace was added or relabelled, where the policy reads namespaces. */
  void namespaceChanged(String namespace) {
    queue.moveUnschedulableIf(
        "NamespaceChange", (pod, hint) -> hint.movedByNamespaceChanged(pod.namespace(), namespace));
  }

  private static String namespace(HasMetadata object) {
    var namespace = object.getMetadata().getNamespace();
    return namespace == null ? "" : namespace;
  }

  private static Map<String, String> labels(HasMetadata object) {
    var labels = object.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
