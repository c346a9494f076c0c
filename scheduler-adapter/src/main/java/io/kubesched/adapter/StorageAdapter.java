package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.kubesched.api.AccessMode;
import io.kubesched.api.ClaimRef;
import io.kubesched.api.CsiDriver;
import io.kubesched.api.CsiNode;
import io.kubesched.api.CsiStorageCapacity;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.VolumeMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The storage objects the volume rules read (PersistentVolumeClaims, PersistentVolumes, and the {@code
 * storage.k8s.io/v1} StorageClasses, CSINodes, CSIDrivers and CSIStorageCapacities) read into the domain
 * model, as pure functions. Each record's Javadoc says what each field means; the Kubernetes rules applied
 * here are these:
 *
 * <ul>
 *   <li>A claim's or volume's class is the legacy annotation {@value #BETA_STORAGE_CLASS} where the object
 *       has it (even empty), else {@code spec.storageClassName} ({@code storageutil.GetPersistentVolume(Claim)
 *       Class}).
 *   <li>Quantities are read as Kubernetes' {@code Value()} reads them: in bytes, rounded up.
 *   <li>A volume without {@code status.phase} is {@link PersistentVolume.Phase#PENDING}; an absent {@code
 *       volumeMode} is {@link VolumeMode#FILESYSTEM}.
 *   <li>A volume's in-tree source is named by the CSI driver Kubernetes migrates it to, with the volume handle
 *       {@code k8s.io/csi-translation-lib} gives it ({@link #inTreeDrivers()}).
 *   <li>A StorageClass's {@code allowedTopologies} become node selector terms of {@code In} requirements.
 *   <li>A CSINode driver without {@code allocatable.count} has no limit (-1).
 * </ul>
 *
 * <p>Unset strings, lists and maps read as empty, as Go reads them. Safe to call from any thread; never
 * returns {@code null}.
 */
public final class StorageAdapter {

  /** The legacy annotation that names a claim's or volume's class, and wins over {@code storageClassName}. */
  public static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

  /** The annotation the PersistentVolume controller sets on a claim it finished binding. */
  public static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";

  /** The annotation naming the node a scheduler chose for a claim whose binding waits for a consumer. */
  public static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";

  static final String GCE_PD_DRIVER = "pd.csi.storage.gke.io";
  static final String AWS_EBS_DRIVER = "ebs.csi.aws.com";
  static final String AZURE_DISK_DRIVER = "disk.csi.azure.com";
  static final String AZURE_FILE_DRIVER = "file.csi.azure.com";
  static final String CINDER_DRIVER = "cinder.csi.openstack.org";
  static final String VSPHERE_DRIVER = "csi.vsphere.vmware.com";
  static final String PORTWORX_DRIVER = "pxd.portworx.com";

  private static final String ZONE_BETA = "failure-domain.beta.kubernetes.io/zone";
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String UNSPECIFIED = "UNSPECIFIED";
  private static final Pattern EBS_VOLUME = Pattern.compile("^vol-[^/]*$");
  private static final Pattern AZURE_FILE_SECRET = Pattern.compile("azure-storage-account-(.+)-secret");
  private static final String AZURE_FILE_RESOURCE_GROUP = "kubernetes.io/azure-file-resource-group";

  private StorageAdapter() {}

  /**
   * @return the names of the CSI drivers Kubernetes migrates in-tree volume sources to, by the source's field
   *     name in a PersistentVolume's spec ({@code k8s.io/csi-translation-lib} v0.37.2)
   */
  public static Map<String, String> inTreeDrivers() {
    return Map.of(
        "gcePersistentDisk", GCE_PD_DRIVER,
        "awsElasticBlockStore", AWS_EBS_DRIVER,
        "azureDisk", AZURE_DISK_DRIVER,
        "azureFile", AZURE_FILE_DRIVER,
        "cinder", CINDER_DRIVER,
        "vsphereVolume", VSPHERE_DRIVER,
        "portworxVolume", PORTWORX_DRIVER);
  }

  /**
   * @return what the volume rules read of {@code claim}
   * @throws MalformedObjectException naming the claim, field and value, if an access mode or the volume mode
   *     is not one Kubernetes knows, the storage request is not a quantity, or the selector cannot be parsed
   */
  public static PersistentVolumeClaim claim(io.fabric8.kubernetes.api.model.PersistentVolumeClaim claim) {
    var meta = meta(claim);
    var object = "PersistentVolumeClaim " + orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
    var spec = claim.getSpec();
    var annotations = orEmpty(meta.getAnnotations());
    long requested = 0;
    String volumeName = "";
    String className = "";
    String attributesClass = "";
    Set<AccessMode> modes = Set.of();
    VolumeMode mode = VolumeMode.FILESYSTEM;
    io.kubesched.api.LabelSelector selector = null;
    if (spec != null) {
      var resources = spec.getResources();
      var storage = resources == null ? null : orEmpty(resources.getRequests()).get("storage");
      requested = bytes(storage, object, "spec.resources.requests.storage", 0);
      volumeName = orEmpty(spec.getVolumeName());
      className = orEmpty(spec.getStorageClassName());
      attributesClass = orEmpty(spec.getVolumeAttributesClassName());
      modes = accessModes(spec.getAccessModes(), object);
      mode = volumeMode(spec.getVolumeMode(), object);
      selector = LabelSelectors.read(spec.getSelector(), object, "spec.selector");
    }
    if (annotations.containsKey(BETA_STORAGE_CLASS)) {
      className = orEmpty(annotations.get(BETA_STORAGE_CLASS));
    }
    var status = claim.getStatus();
    return new PersistentVolumeClaim(
        orEmpty(meta.getNamespace()),
        orEmpty(meta.getName()),
        orEmpty(meta.getUid()),
        className,
        volumeName,
        modes,
        mode,
        requested,
        selector,
        attributesClass,
        status != null && "Lost".equals(status.getPhase()),
        meta.getDeletionTimestamp() != null,
        annotations.containsKey(BIND_COMPLETED),
        orEmpty(annotations.get(SELECTED_NODE)),
        controllingPod(meta.getOwnerReferences()));
  }

  /**
   * @return what the volume rules read of {@code volume}
   * @throws MalformedObjectException naming the volume, field and value, if an access mode, the volume mode
   *     or the phase is not one Kubernetes knows, the capacity is not a quantity, a node affinity operator is
   *     unknown, or an in-tree source cannot be translated to its CSI driver's volume handle (an AWS volume id
   *     of no known form, GCE zones of several regions)
   */
  public static PersistentVolume volume(io.fabric8.kubernetes.api.model.PersistentVolume volume) {
    var meta = meta(volume);
    var name = orEmpty(meta.getName());
    var object = "PersistentVolume " + name;
    var spec = volume.getSpec();
    var annotations = orEmpty(meta.getAnnotations());
    var labels = SharedStrings.labels(meta.getLabels());
    long capacity = 0;
    String className = "";
    String attributesClass = "";
    Set<AccessMode> modes = Set.of();
    VolumeMode mode = VolumeMode.FILESYSTEM;
    var nodeAffinity = new ArrayList<NodeSelectorTerm>();
    ClaimRef claimRef = null;
    String[] csi = {"", ""};
    if (spec != null) {
      capacity = bytes(orEmpty(spec.getCapacity()).get("storage"), object, "spec.capacity.storage", 0);
      className = orEmpty(spec.getStorageClassName());
      attributesClass = orEmpty(spec.getVolumeAttributesClassName());
      modes = accessModes(spec.getAccessModes(), object);
      mode = volumeMode(spec.getVolumeMode(), object);
      var affinity = spec.getNodeAffinity();
      var required = affinity == null ? null : affinity.getRequired();
      if (required != null) {
        var terms = orEmpty(required.getNodeSelectorTerms());
        for (int i = 0; i < terms.size(); i++) {
          nodeAffinity.add(
              Affinities.term(terms.get(i), object, "spec.nodeAffinity.required.nodeSelectorTerms[" + i + "]"));
        }
      }
      var ref = spec.getClaimRef();
      if (ref != null) {
        claimRef = new ClaimRef(orEmpty(ref.getNamespace()), orEmpty(ref.getName()), orEmpty(ref.getUid()));
      }
      csi = csiSource(spec, name, labels, annotations, object);
    }
    if (annotations.containsKey(BETA_STORAGE_CLASS)) {
      className = orEmpty(annotations.get(BETA_STORAGE_CLASS));
    }
    var status = volume.getStatus();
    return new PersistentVolume(
        name,
        className,
        capacity,
        modes,
        mode,
        attributesClass,
        nodeAffinity,
        labels,
        claimRef,
        phase(status == null ? null : status.getPhase(), object),
        meta.getDeletionTimestamp() != null,
        csi[0],
        csi[1]);
  }

  /** @return what the volume rules read of {@code storageClass} */
  public static io.kubesched.api.StorageClass storageClass(StorageClass storageClass) {
    var meta = meta(storageClass);
    var terms = new ArrayList<NodeSelectorTerm>();
    for (var term : orEmpty(storageClass.getAllowedTopologies())) {
      var requirements = new ArrayList<NodeSelectorRequirement>();
      if (term != null) {
        for (var expression : orEmpty(term.getMatchLabelExpressions())) {
          if (expression != null) {
            var values = orEmpty(expression.getValues()).stream().map(PodAdapter::orEmpty).toList();
            requirements.add(
                new NodeSelectorRequirement(
                    orEmpty(expression.getKey()), NodeSelectorRequirement.Operator.IN, values));
          }
        }
      }
      terms.add(new NodeSelectorTerm(requirements, List.of()));
    }
    return new io.kubesched.api.StorageClass(
        orEmpty(meta.getName()),
        orEmpty(storageClass.getProvisioner()),
        "WaitForFirstConsumer".equals(storageClass.getVolumeBindingMode()),
        terms);
  }

  /** @return what the volume rules read of {@code csiNode}: its drivers, by name */
  public static CsiNode csiNode(CSINode csiNode) {
    var meta = meta(csiNode);
    var drivers = new HashMap<String, CsiNode.Driver>();
    var spec = csiNode.getSpec();
    for (var driver : spec == null ? List.<io.fabric8.kubernetes.api.model.storage.CSINodeDriver>of()
        : orEmpty(spec.getDrivers())) {
      if (driver == null) {
        continue;
      }
      var allocatable = driver.getAllocatable();
      var count = allocatable == null ? null : allocatable.getCount();
      var name = orEmpty(driver.getName());
      drivers.put(
          name,
          new CsiNode.Driver(
              name,
              orEmpty(driver.getNodeID()),
              count == null ? -1 : count,
              orEmpty(driver.getTopologyKeys()).stream().map(PodAdapter::orEmpty).toList()));
    }
    return new CsiNode(orEmpty(meta.getName()), drivers);
  }

  /** @return what the volume rules read of {@code csiDriver} */
  public static CsiDriver csiDriver(CSIDriver csiDriver) {
    var meta = meta(csiDriver);
    var spec = csiDriver.getSpec();
    var attach = spec == null ? null : spec.getAttachRequired();
    var capacity = spec == null ? null : spec.getStorageCapacity();
    return new CsiDriver(orEmpty(meta.getName()), attach == null || attach, Boolean.TRUE.equals(capacity));
  }

  /**
   * @return what the volume rules read of {@code capacity}
   * @throws MalformedObjectException naming the object, field and value, if {@code capacity} or {@code
   *     maximumVolumeSize} is not a quantity, or {@code nodeTopology} cannot be parsed
   */
  public static CsiStorageCapacity capacity(CSIStorageCapacity capacity) {
    var meta = meta(capacity);
    var object = "CSIStorageCapacity " + orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
    return new CsiStorageCapacity(
        orEmpty(meta.getNamespace()),
        orEmpty(meta.getName()),
        orEmpty(capacity.getStorageClassName()),
        LabelSelectors.read(capacity.getNodeTopology(), object, "nodeTopology"),
        bytes(capacity.getCapacity(), object, "capacity", -1),
        bytes(capacity.getMaximumVolumeSize(), object, "maximumVolumeSize", -1));
  }

  private static ObjectMeta meta(HasMetadata object) {
    return Objects.requireNonNullElseGet(object.getMetadata(), ObjectMeta::new);
  }

  private static long bytes(@Nullable Quantity quantity, String object, String field, long absent) {
    if (quantity == null) {
      return absent;
    }
    var text = orEmpty(quantity.getAmount()) + orEmpty(quantity.getFormat());
    try {
      return Quantities.value(text);
    } catch (IllegalArgumentException e) {
      throw new MalformedObjectException(object, field, text, e.getMessage(), e);
    }
  }

  private static Set<AccessMode> accessModes(@Nullable List<String> modes, String object) {
    var result = EnumSet.noneOf(AccessMode.class);
    var all = orEmpty(modes);
    for (int i = 0; i < all.size(); i++) {
      var text = orEmpty(all.get(i));
      result.add(
          switch (text) {
            case "ReadWriteOnce" -> AccessMode.READ_WRITE_ONCE;
            case "ReadOnlyMany" -> AccessMode.READ_ONLY_MANY;
            case "ReadWriteMany" -> AccessMode.READ_WRITE_MANY;
            case "ReadWriteOncePod" -> AccessMode.READ_WRITE_ONCE_POD;
            default -> throw new MalformedObjectException(
                object,
                "spec.accessModes[" + i + "]",
                text,
                "is not ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod",
                null);
          });
    }
    return result;
  }

  private static VolumeMode volumeMode(@Nullable String text, String object) {
    if (text == null) {
      return VolumeMode.FILESYSTEM;
    }
    return switch (text) {
      case "Filesystem" -> VolumeMode.FILESYSTEM;
      case "Block" -> VolumeMode.BLOCK;
      default -> throw new MalformedObjectException(
          object, "spec.volumeMode", text, "is not Filesystem or Block", null);
    };
  }

  private static PersistentVolume.Phase phase(@Nullable String text, String object) {
    if (text == null || text.isEmpty()) {
      return PersistentVolume.Phase.PENDING;
    }
    return switch (text) {
      case "Pending" -> PersistentVolume.Phase.PENDING;
      case "Available" -> PersistentVolume.Phase.AVAILABLE;
      case "Bound" -> PersistentVolume.Phase.BOUND;
      case "Released" -> PersistentVolume.Phase.RELEASED;
      case "Failed" -> PersistentVolume.Phase.FAILED;
      default -> throw new MalformedObjectException(
          object, "status.phase", text, "is not Pending, Available, Bound, Released or Failed", null);
    };
  }

  /** The uid of the pod that controls an object, as {@code metav1.GetControllerOf} finds it; empty if none. */
  private static String controllingPod(@Nullable List<OwnerReference> references) {
    for (var reference : orEmpty(references)) {
      if (reference != null
          && Boolean.TRUE.equals(reference.getController())
          && "Pod".equals(reference.getKind())) {
        return orEmpty(reference.getUid());
      }
    }
    return "";
  }

  /** The CSI driver and volume handle of a volume's source: {@code {driver, handle}}, empty for neither. */
  private static String[] csiSource(
      PersistentVolumeSpec spec,
      String name,
      Map<String, String> labels,
      Map<String, String> annotations,
      String object) {
    if (spec.getCsi() != null) {
      return new String[] {orEmpty(spec.getCsi().getDriver()), orEmpty(spec.getCsi().getVolumeHandle())};
    }
    if (spec.getGcePersistentDisk() != null) {
      return new String[] {GCE_PD_DRIVER, gceHandle(orEmpty(spec.getGcePersistentDisk().getPdName()), labels, object)};
    }
    if (spec.getAwsElasticBlockStore() != null) {
      return new String[] {AWS_EBS_DRIVER, ebsHandle(orEmpty(spec.getAwsElasticBlockStore().getVolumeID()), object)};
    }
    if (spec.getAzureDisk() != null) {
      return new String[] {AZURE_DISK_DRIVER, orEmpty(spec.getAzureDisk().getDiskURI())};
    }
    if (spec.getAzureFile() != null) {
      var file = spec.getAzureFile();
      var secret = orEmpty(file.getSecretName());
      var matcher = AZURE_FILE_SECRET.matcher(secret);
      var account = matcher.matches() ? matcher.group(1) : secret;
      var namespace = file.getSecretNamespace() != null
          ? file.getSecretNamespace()
          : spec.getClaimRef() == null ? "" : orEmpty(spec.getClaimRef().getNamespace());
      var handle =
          String.join(
              "#",
              orEmpty(annotations.get(AZURE_FILE_RESOURCE_GROUP)),
              account,
              orEmpty(file.getShareName()),
              name,
              namespace);
      return new String[] {AZURE_FILE_DRIVER, handle};
    }
    if (spec.getCinder() != null) {
      return new String[] {CINDER_DRIVER, orEmpty(spec.getCinder().getVolumeID())};
    }
    if (spec.getVsphereVolume() != null) {
      return new String[] {VSPHERE_DRIVER, orEmpty(spec.getVsphereVolume().getVolumePath())};
    }
    if (spec.getPortworxVolume() != null) {
      return new String[] {PORTWORX_DRIVER, orEmpty(spec.getPortworxVolume().getVolumeID())};
    }
    return new String[] {"", ""};
  }

  /**
   * A GCE disk's handle as the translation library builds it: zonal with the volume's one zone label, regional
   * when the label lists several zones ({@code __}-separated) of one region, zone {@code UNSPECIFIED} without
   * one.
   */
  private static String gceHandle(String pdName, Map<String, String> labels, String object) {
    var label = ZONE_BETA;
    var zones = labels.getOrDefault(ZONE_BETA, "");
    if (zones.isEmpty()) {
      label = ZONE;
      zones = labels.getOrDefault(ZONE, "");
    }
    var split = zones.split("__", -1);
    if (split.length == 1 && !split[0].isEmpty()) {
      return "projects/" + UNSPECIFIED + "/zones/" + split[0] + "/disks/" + pdName;
    }
    if (split.length > 1) {
      var regions = new LinkedHashSet<String>();
      for (var zone : split) {
        var parts = zone.split("-", -1);
        if (parts.length != 3) {
          throw new MalformedObjectException(
              object, "metadata.labels[" + label + "]", zones, "zone in unexpected format, expected: "
                  + "{locale}-{region}-{zone}, got: " + zone, null);
        }
        regions.add(parts[0] + "-" + parts[1]);
      }
      if (regions.size() != 1) {
        throw new MalformedObjectException(
            object, "metadata.labels[" + label + "]", zones, "names zones of several regions", null);
      }
      return "projects/" + UNSPECIFIED + "/regions/" + regions.iterator().next() + "/disks/" + pdName;
    }
    return "projects/" + UNSPECIFIED + "/zones/" + UNSPECIFIED + "/disks/" + pdName;
  }

  /** An EBS volume id without its {@code aws://zone/} prefix, as {@code KubernetesVolumeIDToEBSVolumeID}. */
  private static String ebsHandle(String volumeId, String object) {
    var id = volumeId;
    if (volumeId.startsWith("aws://")) {
      var path = volumeId.substring("aws://".length());
      int slash = path.indexOf('/');
      id = slash < 0 ? "" : path.substring(slash);
      id = id.replaceAll("^/+|/+$", "");
      if (!EBS_VOLUME.matcher(id).matches()) {
        throw new MalformedObjectException(
            object, "spec.awsElasticBlockStore.volumeID", volumeId, "is not an AWS volume id (vol-...)", null);
      }
    }
    return id;
  }
}
