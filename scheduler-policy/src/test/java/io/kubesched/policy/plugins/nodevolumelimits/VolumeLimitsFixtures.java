package io.kubesched.policy.plugins.nodevolumelimits;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.CsiNode;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.api.StorageClass;
import io.kubesched.api.Volume;
import io.kubesched.api.VolumeMode;
import io.kubesched.policy.framework.FilterResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fixtures of the {@link NodeVolumeLimitsFilter} tests: claims, volumes, classes and CSINodes as kube's
 * {@code nodevolumelimits/csi_test.go} builds them with its fake listers, and short builders for pods that
 * use claims.
 */
final class VolumeLimitsFixtures {

  private VolumeLimitsFixtures() {}

  static final String NAMESPACE = "test";
  static final String NODE = "node-for-max-pd-test-1";

  static final String EBS_CSI_DRIVER = "ebs.csi.aws.com";
  static final String GCE_CSI_DRIVER = "pd.csi.storage.gke.io";
  static final String AWS_EBS_IN_TREE = "kubernetes.io/aws-ebs";
  static final String HOSTPATH_IN_TREE = "kubernetes.io/hostpath";
  static final String SC_NAME = "csi-sc";

  private static final AtomicInteger POD_NAMES = new AtomicInteger();

  // ---------------------------------------------------------------- objects

  /** @return a claim in {@link #NAMESPACE} of class {@code className} bound to {@code volumeName} */
  static PersistentVolumeClaim claim(String name, String className, String volumeName) {
    return new PersistentVolumeClaim(
        NAMESPACE, name, "uid-" + name, className, volumeName, Set.of(), VolumeMode.FILESYSTEM, 0, null, "", false,
        false, false, "", "");
  }

  /** @return {@code claim} controlled by the pod with uid {@code podUid} */
  static PersistentVolumeClaim ownedBy(PersistentVolumeClaim claim, String podUid) {
    return new PersistentVolumeClaim(
        claim.namespace(), claim.name(), claim.uid(), claim.storageClassName(), claim.volumeName(),
        claim.accessModes(), claim.volumeMode(), claim.requestedBytes(), claim.selector(),
        claim.volumeAttributesClassName(), claim.lost(), claim.deleting(), claim.bindCompleted(),
        claim.selectedNode(), podUid);
  }

  /** @return a volume attached by {@code csiDriver} (none when empty) with handle {@code handle} */
  static PersistentVolume volume(String name, String csiDriver, String handle) {
    return new PersistentVolume(
        name, "", 0, Set.of(), VolumeMode.FILESYSTEM, "", List.of(), Map.of(), null,
        PersistentVolume.Phase.BOUND, false, csiDriver, handle);
  }

  static StorageClass storageClass(String name, String provisioner) {
    return new StorageClass(name, provisioner, false, List.of());
  }

  /** @return a CSINode of {@link #NODE} with the given drivers, each with {@code limit} (-1: no limit) */
  static CsiNode csiNode(int limit, List<String> drivers) {
    return csiNode(NODE, limit, drivers);
  }

  /** @return a CSINode of {@code nodeName} with the given drivers, each with {@code limit} (-1: no limit) */
  static CsiNode csiNode(String nodeName, int limit, List<String> drivers) {
    var byName = new LinkedHashMap<String, CsiNode.Driver>();
    for (var driver : drivers) {
      byName.put(driver, new CsiNode.Driver(driver, nodeName, limit, List.of()));
    }
    return new CsiNode(nodeName, byName);
  }

  static Storage storage(
      List<PersistentVolumeClaim> claims,
      List<PersistentVolume> volumes,
      List<StorageClass> classes,
      List<CsiNode> csiNodes) {
    return Storage.of(claims, volumes, classes, csiNodes, List.of(), List.of());
  }

  // ---------------------------------------------------------------- kube's fake listers

  /**
   * The storage kube's {@code TestCSILimits} builds: per driver, four volumes {@code csi-<driver>-<j>} (an AWS
   * EBS in-tree volume for {@value #AWS_EBS_IN_TREE}, migrated to {@value #EBS_CSI_DRIVER} with its volume id
   * as handle; a host path volume, attached by no driver, for {@value #HOSTPATH_IN_TREE}; a CSI volume of the
   * driver otherwise) and a claim bound to each; the claims {@code csi-4} (class {@value #SC_NAME}, unbound),
   * {@code csi-5} (no class, unbound), {@code csi-6} (class {@value #SC_NAME}, bound to a missing volume); the
   * class {@value #SC_NAME} provisioned by the first driver; the node's CSINode as {@code limitSource} says.
   *
   * @param limitSource kube's: "csinode" (every driver limited to {@code maxVols}), "csinode-with-no-limit",
   *     "no-csi-driver" (a CSINode without drivers) or "" (no CSINode)
   */
  static Storage kubeStorage(
      List<String> drivers, String limitSource, int maxVols, List<PersistentVolumeClaim> extraClaims) {
    var claims = new ArrayList<PersistentVolumeClaim>();
    var volumes = new ArrayList<PersistentVolume>();
    for (var driver : drivers) {
      for (int j = 0; j < 4; j++) {
        var name = "csi-" + driver + "-" + j;
        volumes.add(switch (driver) {
          case AWS_EBS_IN_TREE -> volume(name, EBS_CSI_DRIVER, name);
          case HOSTPATH_IN_TREE -> volume(name, "", "");
          default -> volume(name, driver, name);
        });
        claims.add(claim(name, "", name));
      }
    }
    claims.add(claim("csi-4", SC_NAME, ""));
    claims.add(claim("csi-5", "", ""));
    claims.add(claim("csi-6", SC_NAME, "missing-in-action"));
    claims.addAll(extraClaims);
    List<CsiNode> csiNodes = switch (limitSource) {
      case "csinode" -> List.of(csiNode(maxVols, drivers));
      case "csinode-with-no-limit" -> List.of(csiNode(-1, drivers));
      case "no-csi-driver" -> List.of(csiNode(-1, List.of()));
      default -> List.of();
    };
    return storage(claims, volumes, List.of(storageClass(SC_NAME, drivers.get(0))), csiNodes);
  }

  // ---------------------------------------------------------------- pods and nodes

  /** @return a pod with a fresh name and uid using the given claims */
  static PodInfo podWithClaims(String... claims) {
    var name = "pod-" + POD_NAMES.incrementAndGet();
    return PodInfo.builder(NAMESPACE, name).uid("uid-" + name).persistentVolumeClaims(Arrays.asList(claims)).build();
  }

  /** @return a pod with a fresh name and uid with the given inline volumes */
  static PodInfo podWithVolumes(Volume... volumes) {
    var name = "pod-" + POD_NAMES.incrementAndGet();
    return PodInfo.builder(NAMESPACE, name).uid("uid-" + name).volumes(List.of(volumes)).build();
  }

  /**
   * @return the pod {@code name} with uid {@code uid} with generic ephemeral volumes {@code volumeNames},
   *     whose claims are named {@code <pod>-<volume>}
   */
  static PodInfo ephemeralPod(String name, String uid, String... volumeNames) {
    var claims = Arrays.stream(volumeNames).map(v -> name + "-" + v).toList();
    return PodInfo.builder(NAMESPACE, name)
        .uid(uid)
        .persistentVolumeClaims(claims)
        .ephemeralVolumeClaims(claims)
        .build();
  }

  static NodeInfo node(String name, List<PodInfo> pods) {
    return NodeInfo.builder(name).pods(pods).build();
  }

  /** @return a snapshot of the given storage (nodes are handed to the filter one by one) */
  static ClusterSnapshot snapshot(Storage storage) {
    return ClusterSnapshot.of(List.of()).withStorage(storage);
  }

  /** @return the verdict of the prepared filter for {@code pod} on {@code node} */
  static FilterResult verdict(PodInfo pod, NodeInfo node, Storage storage) {
    return new NodeVolumeLimitsFilter().prepare(pod, snapshot(storage)).filter(pod, node);
  }
}
