package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a placement policy knows of a node, including the pods already placed on it (bound, or chosen by
 * this scheduler and being bound).
 *
 * @param name the node's name
 * @param labels the node's labels
 * @param taints the node's taints
 * @param unschedulable whether the node is cordoned ({@code spec.unschedulable})
 * @param allocatable what the node offers to pods ({@code status.allocatable})
 * @param requested the sum of the {@link PodInfo#requests() requests} of {@code pods}
 * @param nonZeroRequested the sum of the {@link PodInfo#nonZeroRequests() non-zero requests} of {@code
 *     pods}, what kube-scheduler's scores count as used
 * @param images the container images present on the node ({@code status.images})
 * @param pods the pods placed on the node
 * @param declaredFeatures {@code status.declaredFeatures}: the features the node's kubelet declares it supports,
 *     as the node lists them (the API server keeps the list sorted and free of duplicates)
 */
@API(status = STABLE, since = "0.1.0")
public record NodeInfo(
    String name,
    Map<String, String> labels,
    List<Taint> taints,
    boolean unschedulable,
    Resources allocatable,
    Resources requested,
    Resources nonZeroRequested,
    List<ContainerImage> images,
    List<PodInfo> pods,
    List<String> declaredFeatures) {

  public NodeInfo {
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
    images = List.copyOf(images);
    pods = List.copyOf(pods);
    declaredFeatures = List.copyOf(declaredFeatures);
  }

  /** A node that declares no features: the components before {@code declaredFeatures} was added. */
  public NodeInfo(
      String name,
      Map<String, String> labels,
      List<Taint> taints,
      boolean unschedulable,
      Resources allocatable,
      Resources requested,
      Resources nonZeroRequested,
      List<ContainerImage> images,
      List<PodInfo> pods) {
    this(name, labels, taints, unschedulable, allocatable, requested, nonZeroRequested, images, pods, List.of());
  }

  /**
   * @return a node without images whose {@code requested} and {@code nonZeroRequested} are the sums over
   *     {@code pods}
   */
  public static NodeInfo of(
      String name,
      Map<String, String> labels,
      List<Taint> taints,
      boolean unschedulable,
      Resources allocatable,
      List<PodInfo> pods) {
    return builder(name)
        .labels(labels)
        .taints(taints)
        .unschedulable(unschedulable)
        .allocatable(allocatable)
        .pods(pods)
        .build();
  }

  /**
   * Starts a node for tests, examples and adapters: no labels, taints, images or pods, nothing allocatable,
   * schedulable.
   *
   * @return a builder of a node named {@code name}
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** @return this node with {@code pod} placed on it as well */
  public NodeInfo withPod(PodInfo pod) {
    var morePods = new ArrayList<>(pods);
    morePods.add(pod);
    return withPods(morePods, requested.plus(pod.requests()), nonZeroRequested.plus(pod.nonZeroRequests()));
  }

  /**
   * The node as it would be if the pod of {@code uid} were gone: what preemption looks at when it considers
   * evicting the pod.
   *
   * @return this node without that pod, its requests subtracted; this node if the pod is not on it
   */
  public NodeInfo withoutPod(String uid) {
    int index = -1;
    for (int i = 0; i < pods.size(); i++) {
      if (pods.get(i).uid().equals(uid)) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      return this;
    }
    var pod = pods.get(index);
    var fewerPods = new ArrayList<>(pods);
    fewerPods.remove(index);
    return withPods(fewerPods, requested.minus(pod.requests()), nonZeroRequested.minus(pod.nonZeroRequests()));
  }

  /** @return this node with other pods and the requests they add up to */
  private NodeInfo withPods(List<PodInfo> newPods, Resources newRequested, Resources newNonZeroRequested) {
    return new NodeInfo(
        name, labels, taints, unschedulable, allocatable, newRequested, newNonZeroRequested, images, newPods,
        declaredFeatures);
  }

  /** @return the host ports the node's pods bind */
  public List<HostPort> usedHostPorts() {
    return pods.stream().flatMap(pod -> pod.hostPorts().stream()).toList();
  }

  /**
   * Builds a {@link NodeInfo} whose {@code requested} and {@code nonZeroRequested} are summed over its pods.
   * Not thread-safe.
   */
  public static final class Builder {
    private final String name;
    private Map<String, String> labels = Map.of();
    private List<Taint> taints = List.of();
    private boolean unschedulable;
    private Resources allocatable = Resources.ZERO;
    private List<ContainerImage> images = List.of();
    private List<PodInfo> pods = List.of();
    private List<String> declaredFeatures = List.of();

    private Builder(String name) {
      this.name = name;
    }

    public Builder labels(Map<String, String> labels) {
      this.labels = labels;
      return this;
    }

    public Builder taints(List<Taint> taints) {
      this.taints = taints;
      return this;
    }

    public Builder unschedulable(boolean unschedulable) {
      this.unschedulable = unschedulable;
      return this;
    }

    public Builder allocatable(Resources allocatable) {
      this.allocatable = allocatable;
      return this;
    }

    /** Sets CPU (millicores), memory (bytes) and pod count allocatable, nothing else. */
    public Builder allocatable(long milliCpu, long memory, long pods) {
      return allocatable(new Resources(milliCpu, memory, 0, pods, Map.of()));
    }

    public Builder images(List<ContainerImage> images) {
      this.images = images;
      return this;
    }

    public Builder pods(List<PodInfo> pods) {
      this.pods = pods;
      return this;
    }

    /** @param declaredFeatures the node's {@code status.declaredFeatures} */
    public Builder declaredFeatures(List<String> declaredFeatures) {
      this.declaredFeatures = declaredFeatures;
      return this;
    }

    public NodeInfo build() {
      var requested = Resources.ZERO;
      var nonZeroRequested = Resources.ZERO;
      for (var pod : pods) {
        requested = requested.plus(pod.requests());
        nonZeroRequested = nonZeroRequested.plus(pod.nonZeroRequests());
      }
      return new NodeInfo(
          name, labels, taints, unschedulable, allocatable, requested, nonZeroRequested, images, pods,
          declaredFeatures);
    }
  }
}
