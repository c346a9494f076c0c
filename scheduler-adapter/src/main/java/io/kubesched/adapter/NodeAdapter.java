package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** {@code Node} to {@link NodeInfo}, as pure functions. */
public final class NodeAdapter {

  private NodeAdapter() {}

  /**
   * @param node the node
   * @param pods the pods placed on it
   * @return what a placement policy needs of {@code node}; its allocatable is {@code
   *     status.allocatable} (nothing if unset)
   * @throws MalformedObjectException naming the node, field and value, if an allocatable quantity or a
   *     taint cannot be read
   */
  public static NodeInfo toNodeInfo(Node node, List<PodInfo> pods) {
    var name = orEmpty(node.getMetadata().getName());
    var object = "node " + name;
    var spec = Objects.requireNonNullElseGet(node.getSpec(), NodeSpec::new);
    var status = Objects.requireNonNullElseGet(node.getStatus(), NodeStatus::new);
    var taints = new ArrayList<Taint>();
    var all = orEmpty(spec.getTaints());
    for (int i = 0; i < all.size(); i++) {
      var t = all.get(i);
      var field = "spec.taints[" + i + "]";
      var effect = PodAdapter.taintEffect(t.getEffect(), object, field + ".effect");
      if (orEmpty(t.getKey()).isEmpty()) {
        throw new MalformedObjectException(object, field + ".key", "", "must not be empty", null);
      }
      taints.add(new Taint(t.getKey(), orEmpty(t.getValue()), effect));
    }
    return NodeInfo.of(
        name,
        orEmpty(node.getMetadata().getLabels()),
        taints,
        Boolean.TRUE.equals(spec.getUnschedulable()),
        ResourceLists.read(status.getAllocatable(), object, "status.allocatable").toResources(0),
        pods);
  }
}
