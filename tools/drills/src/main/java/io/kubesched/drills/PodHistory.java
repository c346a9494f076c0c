package io.kubesched.drills;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The runner's own pod watch, from before the first pod to the end of the drill, straight to kube-apiserver
 * (not through the proxy): every distinct {@code spec.nodeName} each pod was seen with. An informer, so that it
 * resumes after the API server restarts and relists after a 410; a pod that moved between two lists still
 * shows, as an update from one node name to another.
 *
 * <p>Thread-safe: the informer's thread records, the runner's thread reads.
 */
final class PodHistory implements AutoCloseable {

  private final Map<String, List<String>> nodeNames = new HashMap<>(); // guarded by this
  private final SharedIndexInformer<Pod> informer;

  PodHistory(KubernetesClient admin, String namespace) {
    this.informer = admin.pods().inNamespace(namespace).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        record(pod);
      }

      @Override
      public void onUpdate(Pod old, Pod pod) {
        record(pod);
      }

      @Override
      public void onDelete(Pod pod, boolean finalStateUnknown) {
        record(pod);
      }
    }, 0);
  }

  private synchronized void record(Pod pod) {
    var node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (node == null || node.isEmpty()) {
      return;
    }
    var seen = nodeNames.computeIfAbsent(pod.getMetadata().getUid(), uid -> new ArrayList<>());
    if (!seen.contains(node)) {
      seen.add(node);
    }
  }

  /** @return the node names seen for each of {@code uids} the watch saw bound */
  synchronized Map<String, List<String>> nodeNamesSeen(Set<String> uids) {
    var result = new HashMap<String, List<String>>();
    uids.forEach(uid -> {
      var seen = nodeNames.get(uid);
      if (seen != null) {
        result.put(uid, List.copyOf(seen));
      }
    });
    return result;
  }

  @Override
  public void close() {
    informer.close();
  }
}
