package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ContainerImageBuilder;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeAffinityBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTermBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Small builders of fabric8 pods and nodes for the tests, e.g. {@code pod().container("app", "cpu",
 * "500m").build()}. Resource lists are given as name, quantity, name, quantity...
 */
final class Fixtures {

  private Fixtures() {}

  static PodFixture pod() {
    return new PodFixture("default", "web");
  }

  static PodFixture pod(String namespace, String name) {
    return new PodFixture(namespace, name);
  }

  static NodeFixture node(String name) {
    return new NodeFixture(name);
  }

  /** A quantity as the API server would hand it over, malformed or not. */
  static Quantity quantity(String text) {
    // fabric8 rejects only a few texts when parsing (such as ""); keep those verbatim.
    try {
      return new Quantity(text);
    } catch (IllegalArgumentException e) {
      return new Quantity(text, "");
    }
  }

  /** @param namesAndQuantities name, quantity, name, quantity... */
  static Map<String, Quantity> resources(String... namesAndQuantities) {
    if (namesAndQuantities.length % 2 != 0) {
      throw new IllegalArgumentException("names and quantities come in pairs");
    }
    var list = new LinkedHashMap<String, Quantity>();
    for (int i = 0; i < namesAndQuantities.length; i += 2) {
      list.put(namesAndQuantities[i], quantity(namesAndQuantities[i + 1]));
    }
    return list;
  }

  /** A node selector requirement as the API carries it: strings, {@code null} for unset. */
  static NodeSelectorRequirement requirement(@Nullable String key, @Nullable String operator, String... values) {
    return new NodeSelectorRequirementBuilder().withKey(key).withOperator(operator).withValues(values).build();
  }

  static NodeSelectorTerm term(List<NodeSelectorRequirement> matchExpressions, List<NodeSelectorRequirement> matchFields) {
    return new NodeSelectorTermBuilder().withMatchExpressions(matchExpressions).withMatchFields(matchFields).build();
  }

  static NodeSelectorTerm expressions(NodeSelectorRequirement... matchExpressions) {
    return term(List.of(matchExpressions), List.of());
  }

  static PreferredSchedulingTerm preferred(@Nullable Integer weight, @Nullable NodeSelectorTerm preference) {
    return new PreferredSchedulingTermBuilder().withWeight(weight).withPreference(preference).build();
  }

  /** Node affinity with required terms (none at all if {@code null}) and preferred terms. */
  static NodeAffinity nodeAffinity(@Nullable List<NodeSelectorTerm> required, List<PreferredSchedulingTerm> preferred) {
    var builder = new NodeAffinityBuilder().withPreferredDuringSchedulingIgnoredDuringExecution(preferred);
    if (required != null) {
      builder.withNewRequiredDuringSchedulingIgnoredDuringExecution().withNodeSelectorTerms(required).endRequiredDuringSchedulingIgnoredDuringExecution();
    }
    return builder.build();
  }

  static Container container(String name, Map<String, Quantity> requests, Map<String, Quantity> limits) {
    var builder = new ContainerBuilder().withName(name).withImage("busybox");
    if (!requests.isEmpty() || !limits.isEmpty()) {
      builder
          .withNewResources()
          .withRequests(requests.isEmpty() ? null : requests)
          .withLimits(limits.isEmpty() ? null : limits)
          .endResources();
    }
    return builder.build();
  }

  static final class PodFixture {
    private final PodBuilder builder;
    private final List<Container> containers = new ArrayList<>();
    private final List<Container> initContainers = new ArrayList<>();
    private final Map<String, Object> statusFields = new LinkedHashMap<>();

    private PodFixture(String namespace, String name) {
      builder =
          new PodBuilder()
              .withNewMetadata()
              .withNamespace(namespace)
              .withName(name)
              .withUid("uid-" + name)
              .endMetadata()
              .withNewSpec()
              .endSpec();
    }

    /** A container requesting {@code requests} (name, quantity, ...), no limits. */
    PodFixture container(String name, String... requests) {
      return container(Fixtures.container(name, resources(requests), Map.of()));
    }

    PodFixture container(String name, Map<String, Quantity> requests, Map<String, Quantity> limits) {
      return container(Fixtures.container(name, requests, limits));
    }

    PodFixture container(Container container) {
      containers.add(container);
      return this;
    }

    /** An ordinary init container, run to completion before the others start. */
    PodFixture initContainer(String name, String... requests) {
      return initContainer(Fixtures.container(name, resources(requests), Map.of()));
    }

    PodFixture initContainer(String name, Map<String, Quantity> requests, Map<String, Quantity> limits) {
      return initContainer(Fixtures.container(name, requests, limits));
    }

    PodFixture initContainer(Container container) {
      initContainers.add(container);
      return this;
    }

    /** A restartable init container ({@code restartPolicy: Always}): it keeps running beside the others. */
    PodFixture sidecar(String name, String... requests) {
      var sidecar = Fixtures.container(name, resources(requests), Map.of());
      sidecar.setRestartPolicy("Always");
      return initContainer(sidecar);
    }

    PodFixture overhead(String... overhead) {
      builder.editSpec().withOverhead(resources(overhead)).endSpec();
      return this;
    }

    /** Pod-level resources ({@code spec.resources}); an empty map is kept as an empty map. */
    PodFixture podResources(Map<String, Quantity> requests, Map<String, Quantity> limits) {
      builder.editSpec().withNewResources().withRequests(requests).withLimits(limits).endResources().endSpec();
      return this;
    }

    /** Pod-level requests ({@code spec.resources.requests}) only: name, quantity, ... */
    PodFixture podRequests(String... requests) {
      return podResources(resources(requests), Map.of());
    }

    PodFixture owner(String kind, String name, String uid, Boolean controller) {
      var reference =
          new OwnerReferenceBuilder()
              .withApiVersion("apps/v1")
              .withKind(kind)
              .withName(name)
              .withUid(uid)
              .withController(controller)
              .build();
      builder.editMetadata().addToOwnerReferences(reference).endMetadata();
      return this;
    }

    PodFixture affinity(NodeAffinity nodeAffinity) {
      builder.editSpec().editOrNewAffinity().withNodeAffinity(nodeAffinity).endAffinity().endSpec();
      return this;
    }

    PodFixture podAffinity(io.fabric8.kubernetes.api.model.PodAffinity podAffinity) {
      builder.editSpec().editOrNewAffinity().withPodAffinity(podAffinity).endAffinity().endSpec();
      return this;
    }

    PodFixture podAntiAffinity(io.fabric8.kubernetes.api.model.PodAntiAffinity podAntiAffinity) {
      builder.editSpec().editOrNewAffinity().withPodAntiAffinity(podAntiAffinity).endAffinity().endSpec();
      return this;
    }

    PodFixture spread(io.fabric8.kubernetes.api.model.TopologySpreadConstraint constraint) {
      builder.editSpec().addToTopologySpreadConstraints(constraint).endSpec();
      return this;
    }

    PodFixture schedulingGate(String name) {
      builder.editSpec().addNewSchedulingGate().withName(name).endSchedulingGate().endSpec();
      return this;
    }

    PodFixture resourceClaim(String name, String templateName) {
      builder
          .editSpec()
          .addNewResourceClaim()
          .withName(name)
          .withResourceClaimTemplateName(templateName)
          .endResourceClaim()
          .endSpec();
      return this;
    }

    PodFixture volume(Volume volume) {
      builder.editSpec().addToVolumes(volume).endSpec();
      return this;
    }

    PodFixture nodeName(String nodeName) {
      builder.editSpec().withNodeName(nodeName).endSpec();
      return this;
    }

    PodFixture schedulerName(String name) {
      builder.editSpec().withSchedulerName(name).endSpec();
      return this;
    }

    PodFixture priority(Integer priority) {
      builder.editSpec().withPriority(priority).endSpec();
      return this;
    }

    /** Marks the pod as being deleted ({@code metadata.deletionTimestamp} set), as kube's {@code Terminating()}. */
    PodFixture terminating() {
      builder.editMetadata().withDeletionTimestamp("2026-03-02T10:00:00Z").endMetadata();
      return this;
    }

    PodFixture preemptionPolicy(@Nullable String policy) {
      builder.editSpec().withPreemptionPolicy(policy).endSpec();
      return this;
    }

    PodFixture startTime(@Nullable String startTime) {
      builder.editOrNewStatus().withStartTime(startTime).endStatus();
      return this;
    }

    PodFixture nominatedNodeName(@Nullable String node) {
      builder.editOrNewStatus().withNominatedNodeName(node).endStatus();
      return this;
    }

    PodFixture label(String key, String value) {
      builder.editMetadata().addToLabels(key, value).endMetadata();
      return this;
    }

    PodFixture nodeSelector(String key, String value) {
      builder.editSpec().addToNodeSelector(key, value).endSpec();
      return this;
    }

    /** A toleration as the API carries it: strings, {@code null} for unset. */
    PodFixture toleration(String key, String operator, String value, String effect) {
      Toleration toleration =
          new TolerationBuilder()
              .withKey(key)
              .withOperator(operator)
              .withValue(value)
              .withEffect(effect)
              .build();
      builder.editSpec().addToTolerations(toleration).endSpec();
      return this;
    }

    /**
     * A container status as the kubelet reports it during an in-place resize: what it allocated and what it
     * actuated ({@code resources.requests}); an empty map for unset, {@code null} actuated for no {@code
     * resources} at all.
     */
    PodFixture containerStatus(
        String name, Map<String, Quantity> allocated, @Nullable Map<String, Quantity> actuated) {
      builder.editOrNewStatus().addToContainerStatuses(status(name, allocated, actuated)).endStatus();
      return this;
    }

    /** An init container's status, as {@link #containerStatus}. */
    PodFixture initContainerStatus(
        String name, Map<String, Quantity> allocated, @Nullable Map<String, Quantity> actuated) {
      builder.editOrNewStatus().addToInitContainerStatuses(status(name, allocated, actuated)).endStatus();
      return this;
    }

    /**
     * The pod-level {@code status.allocatedResources} and {@code status.resources.requests} ({@code null}: none),
     * set as JSON is decoded, so that fabric8 7's model (no such fields: additional properties) reads them too.
     */
    PodFixture podStatusResources(Map<String, Quantity> allocated, @Nullable Map<String, Quantity> actuated) {
      builder.editOrNewStatus().endStatus();
      statusFields.put("allocatedResources", texts(allocated));
      if (actuated != null) {
        statusFields.put("resources", Map.of("requests", texts(actuated)));
      }
      return this;
    }

    private static Map<String, String> texts(Map<String, Quantity> quantities) {
      var texts = new LinkedHashMap<String, String>();
      quantities.forEach((name, quantity) -> texts.put(name, quantity.toString()));
      return texts;
    }

    PodFixture condition(String type, String status, String reason) {
      builder
          .editOrNewStatus()
          .addNewCondition()
          .withType(type)
          .withStatus(status)
          .withReason(reason)
          .endCondition()
          .endStatus();
      return this;
    }

    private static io.fabric8.kubernetes.api.model.ContainerStatus status(
        String name, Map<String, Quantity> allocated, @Nullable Map<String, Quantity> actuated) {
      var status = new io.fabric8.kubernetes.api.model.ContainerStatusBuilder().withName(name).withAllocatedResources(allocated);
      if (actuated != null) {
        status.withNewResources().withRequests(actuated).endResources();
      }
      return status.build();
    }

    Pod build() {
      var pod = builder.build();
      pod.getSpec().setContainers(new ArrayList<>(containers));
      pod.getSpec().setInitContainers(new ArrayList<>(initContainers));
      return statusFields.isEmpty() ? pod : withFields(pod, "status", statusFields);
    }
  }

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /**
   * {@code pod} with {@code fields} set in its {@code spec} or {@code status} as decoded JSON: typed fields on
   * fabric8 8, additional properties on fabric8 7, whose model lacks the newer fields (schedulingGroup, a pod
   * status's resources), so that one test covers both lines.
   */
  @SuppressWarnings("unchecked")
  static Pod withFields(Pod pod, String part, Map<String, ?> fields) {
    Map<String, Object> json = JSON.convertValue(pod, Map.class);
    var object = (Map<String, Object>) json.computeIfAbsent(part, key -> new LinkedHashMap<>());
    object.putAll(fields);
    return JSON.convertValue(json, Pod.class);
  }

  static final class NodeFixture {
    private final NodeBuilder builder;
    private final List<Taint> taints = new ArrayList<>();
    private final List<ContainerImage> images = new ArrayList<>();

    private NodeFixture(String name) {
      builder = new NodeBuilder().withNewMetadata().withName(name).endMetadata();
    }

    NodeFixture allocatable(String... namesAndQuantities) {
      builder.withNewStatus().withAllocatable(resources(namesAndQuantities)).endStatus();
      return this;
    }

    NodeFixture taint(String key, String value, String effect) {
      taints.add(new TaintBuilder().withKey(key).withValue(value).withEffect(effect).build());
      return this;
    }

    NodeFixture unschedulable(Boolean unschedulable) {
      builder.editOrNewSpec().withUnschedulable(unschedulable).endSpec();
      return this;
    }

    NodeFixture label(String key, String value) {
      builder.editMetadata().addToLabels(key, value).endMetadata();
      return this;
    }

    /** An entry of {@code status.images}; {@code sizeBytes} may be {@code null} for unset. */
    NodeFixture image(Long sizeBytes, String... names) {
      images.add(new ContainerImageBuilder().withNames(names).withSizeBytes(sizeBytes).build());
      return this;
    }

    Node build() {
      if (!taints.isEmpty()) {
        builder.editOrNewSpec().withTaints(taints).endSpec();
      }
      if (!images.isEmpty()) {
        builder.editOrNewStatus().withImages(images).endStatus();
      }
      return builder.build();
    }
  }
}
