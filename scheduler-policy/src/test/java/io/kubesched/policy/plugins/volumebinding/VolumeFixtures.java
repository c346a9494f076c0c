package io.kubesched.policy.plugins.volumebinding;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClaimRef;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.CsiDriver;
import io.kubesched.api.CsiStorageCapacity;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Fixtures for the volume binding tests, after kube's {@code test_utils.go} and {@code binder_test.go}
 * builders: claims, volumes, nodes, pods and storage made of the api records.
 */
final class VolumeFixtures {

  static final long KI = 1024;
  static final long MI = KI * 1024;
  static final long GI = MI * 1024;
  static final long G = 1_000_000_000L;

  static final String HOSTNAME = "kubernetes.io/hostname";

  private VolumeFixtures() {}

  /** @return a WaitForFirstConsumer class without a provisioner (kube's test classes have none) */
  static StorageClass waitClass(String name) {
    return new StorageClass(name, "", true, List.of());
  }

  /** @return an Immediate class without a provisioner */
  static StorageClass immediateClass(String name) {
    return new StorageClass(name, "", false, List.of());
  }

  /** @return a WaitForFirstConsumer class of {@code provisioner}, its topologies allowing {@code key In values} */
  static StorageClass provisioningClass(String name, String provisioner, String key, String... values) {
    var topologies = key.isEmpty()
        ? List.<NodeSelectorTerm>of()
        : List.of(NodeSelectorTerm.ofExpressions(
            NodeSelectorRequirement.of(key, NodeSelectorRequirement.Operator.IN, values)));
    return new StorageClass(name, provisioner, true, topologies);
  }

  static CsiDriver driver(String name, boolean storageCapacity) {
    return new CsiDriver(name, true, storageCapacity);
  }

  /**
   * kube's {@code makeCapacity}: a capacity of the class whose node topology selects {@code nodeKey=value}
   * ({@code value} null: the empty selector, every node); -1 for an absent size.
   */
  static CsiStorageCapacity capacity(
      String name, String className, @Nullable String nodeKeyValue, long capacity, long maximumVolumeSize) {
    var topology = nodeKeyValue == null ? LabelSelector.EVERYTHING : LabelSelector.of(Map.of("nodeKey", nodeKeyValue));
    return new CsiStorageCapacity("default", name, className, topology, capacity, maximumVolumeSize);
  }

  /** @return a node labelled with its hostname and {@code labels} (key, value, key, value, ...) */
  static NodeInfo node(String name, String... labels) {
    var map = new HashMap<String, String>();
    map.put(HOSTNAME, name);
    for (int i = 0; i < labels.length; i += 2) {
      map.put(labels[i], labels[i + 1]);
    }
    return NodeInfo.builder(name).labels(map).build();
  }

  /** @return a node with exactly {@code labels} */
  static NodeInfo bareNode(String name, Map<String, String> labels) {
    return NodeInfo.builder(name).labels(labels).build();
  }

  /** @return a pod of {@code namespace} using the claims {@code claims} */
  static PodInfo pod(String namespace, String name, String... claims) {
    return PodInfo.builder(namespace, name).uid(name + "-uid").persistentVolumeClaims(List.of(claims)).build();
  }

  static Storage storage(
      List<PersistentVolumeClaim> claims,
      List<PersistentVolume> volumes,
      List<StorageClass> classes,
      List<CsiDriver> drivers,
      List<CsiStorageCapacity> capacities) {
    return Storage.of(claims, volumes, classes, List.of(), drivers, capacities);
  }

  static ClusterSnapshot snapshot(List<NodeInfo> nodes, Storage storage) {
    return ClusterSnapshot.of(nodes).withStorage(storage);
  }

  static ClaimBuilder claim(String name, String className) {
    return new ClaimBuilder(name, className);
  }

  static VolumeBuilder volume(String name, String className) {
    return new VolumeBuilder(name, className);
  }

  /** A claim being written; by default unbound, in {@code default}, Filesystem, no request. */
  static final class ClaimBuilder {
    private String namespace = "default";
    private final String name;
    private String uid = "";
    private final String className;
    private String volumeName = "";
    private Set<AccessMode> accessModes = Set.of();
    private VolumeMode volumeMode = VolumeMode.FILESYSTEM;
    private long request;
    private @Nullable LabelSelector selector;
    private String vac = "";
    private boolean lost;
    private boolean deleting;
    private boolean bindCompleted;
    private String selectedNode = "";
    private String owner = "";

    ClaimBuilder(String name, String className) {
      this.name = name;
      this.className = className;
    }

    ClaimBuilder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    ClaimBuilder uid(String uid) {
      this.uid = uid;
      return this;
    }

    ClaimBuilder request(long bytes) {
      this.request = bytes;
      return this;
    }

    /** kube's {@code withBoundPV}: the volume named and the bind-completed annotation set. */
    ClaimBuilder boundTo(String volumeName) {
      this.volumeName = volumeName;
      this.bindCompleted = true;
      return this;
    }

    /** kube's {@code pvcPrebound}: the volume named, binding not completed. */
    ClaimBuilder preboundTo(String volumeName) {
      this.volumeName = volumeName;
      return this;
    }

    ClaimBuilder selectedNode(String node) {
      this.selectedNode = node;
      return this;
    }

    ClaimBuilder accessModes(AccessMode... modes) {
      this.accessModes = Set.of(modes);
      return this;
    }

    ClaimBuilder volumeMode(VolumeMode mode) {
      this.volumeMode = mode;
      return this;
    }

    ClaimBuilder selector(LabelSelector selector) {
      this.selector = selector;
      return this;
    }

    ClaimBuilder volumeAttributesClass(String vac) {
      this.vac = vac;
      return this;
    }

    ClaimBuilder lost() {
      this.lost = true;
      return this;
    }

    ClaimBuilder deleting() {
      this.deleting = true;
      return this;
    }

    ClaimBuilder ownedBy(String podUid) {
      this.owner = podUid;
      return this;
    }

    PersistentVolumeClaim build() {
      return new PersistentVolumeClaim(
          namespace, name, uid, className, volumeName, accessModes, volumeMode, request, selector, vac, lost,
          deleting, bindCompleted, selectedNode, owner);
    }
  }

  /** A volume being written; by default Pending, Filesystem, no capacity, no node affinity, no claim. */
  static final class VolumeBuilder {
    private final String name;
    private final String className;
    private long capacity;
    private Set<AccessMode> accessModes = Set.of();
    private VolumeMode volumeMode = VolumeMode.FILESYSTEM;
    private String vac = "";
    private final Map<String, List<String>> affinity = new LinkedHashMap<>();
    private Map<String, String> labels = Map.of();
    private @Nullable ClaimRef claimRef;
    private PersistentVolume.Phase phase = PersistentVolume.Phase.PENDING;
    private boolean deleting;

    VolumeBuilder(String name, String className) {
      this.name = name;
      this.className = className;
    }

    VolumeBuilder capacity(long bytes) {
      this.capacity = bytes;
      return this;
    }

    VolumeBuilder available() {
      return phase(PersistentVolume.Phase.AVAILABLE);
    }

    VolumeBuilder phase(PersistentVolume.Phase phase) {
      this.phase = phase;
      return this;
    }

    /** kube's {@code withNodeAffinity}: one term, {@code key In values} per key. */
    VolumeBuilder affinity(String key, String... values) {
      affinity.put(key, List.of(values));
      return this;
    }

    VolumeBuilder accessModes(AccessMode... modes) {
      this.accessModes = Set.of(modes);
      return this;
    }

    VolumeBuilder volumeMode(VolumeMode mode) {
      this.volumeMode = mode;
      return this;
    }

    VolumeBuilder volumeAttributesClass(String vac) {
      this.vac = vac;
      return this;
    }

    VolumeBuilder labels(Map<String, String> labels) {
      this.labels = labels;
      return this;
    }

    VolumeBuilder claimRef(PersistentVolumeClaim claim) {
      this.claimRef = new ClaimRef(claim.namespace(), claim.name(), claim.uid());
      return this;
    }

    VolumeBuilder claimRef(ClaimRef claimRef) {
      this.claimRef = claimRef;
      return this;
    }

    VolumeBuilder deleting() {
      this.deleting = true;
      return this;
    }

    PersistentVolume build() {
      var requirements = new ArrayList<NodeSelectorRequirement>();
      affinity.forEach((key, values) ->
          requirements.add(new NodeSelectorRequirement(key, NodeSelectorRequirement.Operator.IN, values)));
      var terms = requirements.isEmpty()
          ? List.<NodeSelectorTerm>of()
          : List.of(NodeSelectorTerm.ofExpressions(requirements.toArray(NodeSelectorRequirement[]::new)));
      return new PersistentVolume(
          name, className, capacity, accessModes, volumeMode, vac, terms, labels, claimRef, phase, deleting, "", "");
    }
  }
}
