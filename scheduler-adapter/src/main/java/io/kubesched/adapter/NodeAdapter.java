package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.kubesched.api.ContainerImage;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.fabric8.Fabric8Compat;
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
   *     status.allocatable} (nothing if unset), its images {@code status.images} (names and sizes), its declared
   *     features {@code status.declaredFeatures}, its
   *     requested and non-zero requested resources the sums over {@code pods}
   * @throws MalformedObjectException naming the node, field and value, if an allocatable quantity, a
   *     taint or an image size cannot be read
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
    return NodeInfo.builder(name)
        .labels(SharedStrings.labels(node.getMetadata().getLabels()))
        .taints(taints)
        .unschedulable(Boolean.TRUE.equals(spec.getUnschedulable()))
        .allocatable(ResourceLists.read(status.getAllocatable(), object, "status.allocatable").toResources(0))
        .images(images(status, object))
        .declaredFeatures(declaredFeatures(status))
        .pods(pods)
        .build();
  }

  /**
   * {@code status.declaredFeatures} as given (the API server keeps them sorted and unique); a null entry reads as
   * empty, as Go reads it, which names no feature.
   */
  private static List<String> declaredFeatures(NodeStatus status) {
    var features = Fabric8Compat.get().declaredFeatures(status);
    if (features == null || features.isEmpty()) {
      return List.of();
    }
    return features.stream().map(PodAdapter::orEmpty).map(SharedStrings::shared).toList();
  }

  /** {@code status.images} as given; an unset size reads as 0, as Go reads it. */
  private static List<ContainerImage> images(NodeStatus status, String object) {
    var images = new ArrayList<ContainerImage>();
    var all = orEmpty(status.getImages());
    for (int i = 0; i < all.size(); i++) {
      var image = all.get(i);
      if (image == null) {
        // Go reads a null entry as an image without names, which matches no container.
        images.add(new ContainerImage(List.of(), 0));
        continue;
      }
      long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
      if (size < 0) {
        throw new MalformedObjectException(
            object, "status.images[" + i + "].sizeBytes", String.valueOf(size), "must not be negative", null);
      }
      var names = orEmpty(image.getNames()).stream().map(PodAdapter::orEmpty).toList();
      images.add(new ContainerImage(names, size));
    }
    return images;
  }
}
