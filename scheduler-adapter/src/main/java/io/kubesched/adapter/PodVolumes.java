package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The volumes of a pod that kube-scheduler's volume restrictions compare (GCE persistent disks, AWS EBS,
 * Ceph RBD, iSCSI) and its inline CSI volumes (which count against a node's attach limit), read into {@link
 * Volume}s. Other kinds are skipped. The API server's defaults apply (an
 * RBD pool left unset is {@code rbd}; an unset {@code readOnly} is false, an unset iSCSI lun 0), so a pod
 * from a server that does not default them compares as one from a real API server would.
 */
final class PodVolumes {

  /** The RBD pool the API server fills in when a pod names none. */
  static final String DEFAULT_RBD_POOL = "rbd";

  private PodVolumes() {}

  /**
   * @param object the pod, for error messages
   * @return the pod's volumes of the five kinds, in order
   * @throws MalformedObjectException naming {@code object}, the field and its value, if a field the
   *     comparison uses is one the API server would refuse: an empty disk name, volume id, RBD image, iSCSI
   *     portal or IQN, CSI driver, no RBD monitor, an iSCSI lun outside 0..255, or a volume of more than one kind
   */
  static List<Volume> read(PodSpec spec, String object) {
    var volumes = new ArrayList<Volume>();
    for (var volume : orEmpty(spec.getVolumes())) {
      if (volume == null) {
        continue;
      }
      var field = "spec.volumes[" + orEmpty(volume.getName()) + "]";
      var kinds =
          Stream.of(
                  volume.getGcePersistentDisk() == null ? null : "gcePersistentDisk",
                  volume.getAwsElasticBlockStore() == null ? null : "awsElasticBlockStore",
                  volume.getRbd() == null ? null : "rbd",
                  volume.getIscsi() == null ? null : "iscsi",
                  volume.getCsi() == null ? null : "csi")
              .filter(Objects::nonNull)
              .toList();
      if (kinds.size() > 1) {
        throw new MalformedObjectException(
            object, field, String.join(", ", kinds), "may not specify more than one volume type", null);
      }
      if (volume.getGcePersistentDisk() != null) {
        var disk = volume.getGcePersistentDisk();
        volumes.add(
            new Volume.GcePersistentDisk(
                required(disk.getPdName(), object, field + ".gcePersistentDisk.pdName"),
                Boolean.TRUE.equals(disk.getReadOnly())));
      } else if (volume.getAwsElasticBlockStore() != null) {
        var ebs = volume.getAwsElasticBlockStore();
        volumes.add(
            new Volume.AwsElasticBlockStore(
                required(ebs.getVolumeID(), object, field + ".awsElasticBlockStore.volumeID"),
                Boolean.TRUE.equals(ebs.getReadOnly())));
      } else if (volume.getRbd() != null) {
        var rbd = volume.getRbd();
        var monitors = orEmpty(rbd.getMonitors()).stream().map(PodAdapter::orEmpty).toList();
        if (monitors.isEmpty()) {
          throw new MalformedObjectException(
              object, field + ".rbd.monitors", "[]", "must name at least one monitor", null);
        }
        var pool = orEmpty(rbd.getPool());
        volumes.add(
            new Volume.Rbd(
                monitors,
                pool.isEmpty() ? DEFAULT_RBD_POOL : pool,
                required(rbd.getImage(), object, field + ".rbd.image"),
                Boolean.TRUE.equals(rbd.getReadOnly())));
      } else if (volume.getIscsi() != null) {
        var iscsi = volume.getIscsi();
        var portal = required(iscsi.getTargetPortal(), object, field + ".iscsi.targetPortal");
        var iqn = required(iscsi.getIqn(), object, field + ".iscsi.iqn");
        int lun = iscsi.getLun() == null ? 0 : iscsi.getLun();
        if (lun < 0 || lun > 255) {
          throw new MalformedObjectException(
              object, field + ".iscsi.lun", String.valueOf(lun), "is not a lun (0..255)", null);
        }
        volumes.add(new Volume.Iscsi(portal, iqn, lun, Boolean.TRUE.equals(iscsi.getReadOnly())));
      } else if (volume.getCsi() != null) {
        var csi = volume.getCsi();
        volumes.add(
            new Volume.Csi(
                required(csi.getDriver(), object, field + ".csi.driver"),
                orEmpty(volume.getName()),
                Boolean.TRUE.equals(csi.getReadOnly())));
      }
    }
    return volumes;
  }

  private static String required(@Nullable String value, String object, String field) {
    if (value == null || value.isEmpty()) {
      throw new MalformedObjectException(object, field, "", "must not be empty", null);
    }
    return value;
  }

  /**
   * The persistent volume claims the pod's volumes use, in the order of the volumes: a {@code
   * persistentVolumeClaim} volume by its claim name, a generic {@code ephemeral} volume by the name of the
   * claim Kubernetes creates for it, {@code <podName>-<volumeName>} ({@code ephemeral.VolumeClaimName}).
   *
   * @param podName the pod's name
   */
  static List<String> claims(PodSpec spec, String podName) {
    var claims = new ArrayList<String>();
    for (var volume : orEmpty(spec.getVolumes())) {
      if (volume == null) {
        continue;
      }
      if (volume.getPersistentVolumeClaim() != null) {
        claims.add(orEmpty(volume.getPersistentVolumeClaim().getClaimName()));
      } else if (volume.getEphemeral() != null) {
        claims.add(podName + "-" + orEmpty(volume.getName()));
      }
    }
    return claims;
  }

  /**
   * The claims of the pod's generic {@code ephemeral} volumes, {@code <podName>-<volumeName>} each, in the
   * order of the volumes: the subset of {@link #claims} that Kubernetes creates for the pod.
   */
  static List<String> ephemeralClaims(PodSpec spec, String podName) {
    var claims = new ArrayList<String>();
    for (var volume : orEmpty(spec.getVolumes())) {
      if (volume != null && volume.getPersistentVolumeClaim() == null && volume.getEphemeral() != null) {
        claims.add(podName + "-" + orEmpty(volume.getName()));
      }
    }
    return claims;
  }
}
