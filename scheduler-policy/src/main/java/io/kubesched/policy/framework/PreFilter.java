package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import org.apiguardian.api.API;

/**
 * An optional capability of a {@link Filter} that computes something once per pod before any node is
 * filtered, as kube-scheduler's {@code PreFilter}: for example which topology domains hold pods that a pod's
 * anti-affinity terms select, so that no node's check has to look at every pod of the cluster.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface PreFilter {

  /**
   * Called once per pod, from the scheduling thread, before any node is filtered.
   *
   * @param pod the pod to place
   * @param cluster the whole snapshot
   * @return the filter to use for this pod's nodes: a new object carrying what it computed (this filter is
   *     not changed). It may reject every node, for example when the pod's own rules cannot be met anywhere.
   */
  Filter prepare(PodInfo pod, ClusterSnapshot cluster);

  /**
   * What {@link #prepare} returns for a pod the filter has nothing to check for (kube's PreFilter {@code Skip}):
   * it fits every node.
   *
   * @param name the filter's name
   * @return the filter for this pod
   */
  static Filter skip(String name) {
    return new Skipped(name);
  }

  /**
   * The filter {@link #skip} makes: it fits every node.
   *
   * @param name the filter's name
   */
  record Skipped(String name) implements Filter {

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return FilterResult.fit();
    }
  }

  /**
   * What {@link #prepare} returns for a pod it turns away before any node is looked at, as kube-scheduler's
   * PreFilter rejects a pod whose claim does not exist: every node gets {@code rejection}, and the {@link
   * io.kubesched.policy.Policy} states its reasons once in the pod's message ({@code 0/3 nodes are available:
   * persistentvolumeclaim "data" not found.}) rather than once per node, and looks at no node.
   *
   * @param name the filter's name
   * @param rejection why the pod fits nowhere
   * @return the filter for this pod
   */
  static Filter rejectPod(String name, FilterResult.Rejected rejection) {
    return new PodRejected(name, rejection);
  }

  /**
   * The filter {@link #rejectPod} makes: it rejects every node with the same rejection.
   *
   * @param name the filter's name
   * @param rejection why the pod fits nowhere
   */
  record PodRejected(String name, FilterResult.Rejected rejection) implements Filter {

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return rejection;
    }

    /** @return the rejection's messages joined as kube-scheduler joins a status's reasons */
    public String message() {
      var messages = new ArrayList<String>(rejection.reasons().size());
      rejection.reasons().forEach(reason -> messages.add(reason.message()));
      return String.join(", ", messages);
    }
  }
}
