package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API writes of kube-scheduler's volume binding PreBind ({@code bindAPIUpdate} in the VolumeBinding
 * plugin's binder.go): a volume chosen for a claim gets the claim in its {@code spec.claimRef} (and, unless it
 * was pre-bound to the claim by name, the annotation {@code pv.kubernetes.io/bound-by-controller: yes}, as
 * kube's {@code GetBindVolumeToClaim} sets it), and a claim
 * whose volume is to be provisioned gets the chosen node in its {@code volume.kubernetes.io/selected-node}
 * annotation. The PersistentVolume controller and the provisioner do the rest; the caller waits for them.
 *
 * <p>Each write reads the object and updates it with the {@code resourceVersion} it read, so a change made
 * meanwhile (the PersistentVolume controller binding the volume to another claim) is a conflict, which fails
 * the write as in kube-scheduler; a write is never forced. A conflict is checked by reading the object again:
 * the update may have been retried by the client after a first try that took (fabric8 retries requests on
 * server errors and I/O failures, as the {@link Binder} relies on), and then the object already shows it.
 *
 * <p>Each write takes one token of the {@link TokenBucket} shared with the bindings. Thread-safe; blocks the
 * calling thread for the requests (a few request time-outs at most).
 */
public final class VolumeWriter {

  /** The annotation a scheduler sets on a claim to have its volume provisioned where the pod goes. */
  public static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";

  /**
   * The annotation that tells the PersistentVolume controller it bound the volume (a scheduler binding counts
   * as the controller's), so that it may unbind it again; a volume pre-bound by its creator does not get it.
   */
  static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";

  private static final Logger LOG = LoggerFactory.getLogger(VolumeWriter.class);

  private final KubernetesClient client;
  private final TokenBucket writes;

  /**
   * @param client the client to write with; not closed by this writer
   * @param writes the rate limit of the scheduler's writes
   */
  public VolumeWriter(KubernetesClient client, TokenBucket writes) {
    this.client = client;
    this.writes = writes;
  }

  /**
   * Binds volume {@code volumeName} to a claim: sets its {@code spec.claimRef} to the claim (kind {@code
   * PersistentVolumeClaim}, apiVersion {@code v1}, namespace, name, uid). A volume pre-bound to the claim by
   * name (a claimRef without uid) gets the uid.
   *
   * @return {@link VolumeOutcome.Written} if the volume refers to the claim now; {@link VolumeOutcome.Failed}
   *     if it is gone, already refers to another claim (or to an earlier claim of that name), or changed while
   *     it was written
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public VolumeOutcome bindVolume(String volumeName, String claimNamespace, String claimName, String claimUid)
      throws InterruptedException {
    writes.acquire();
    try {
      var current = client.persistentVolumes().withName(volumeName).get();
      if (current == null) {
        return notFound("persistentvolumes", volumeName);
      }
      if (refersTo(current, claimNamespace, claimName, claimUid)) {
        return new VolumeOutcome.Written();
      }
      var ref = current.getSpec() == null ? null : current.getSpec().getClaimRef();
      // Pre-bound by name (no uid): the claim's already; it gets the uid, not the bound-by-controller mark.
      boolean preBound =
          ref != null
              && claimNamespace.equals(ref.getNamespace())
              && claimName.equals(ref.getName())
              && (ref.getUid() == null || ref.getUid().isEmpty());
      if (ref != null && ref.getName() != null && !ref.getName().isEmpty() && !preBound) {
        return new VolumeOutcome.Failed(
            "persistentvolume \"" + volumeName + "\" is already bound to claim " + ref.getNamespace() + "/"
                + ref.getName());
      }
      var builder = new PersistentVolumeBuilder(current);
      var annotations = current.getMetadata().getAnnotations();
      if (!preBound && (annotations == null || !annotations.containsKey(BOUND_BY_CONTROLLER))) {
        builder.editMetadata().addToAnnotations(BOUND_BY_CONTROLLER, "yes").endMetadata();
      }
      PersistentVolume updated =
          builder
              .editOrNewSpec()
              .withClaimRef(
                  new ObjectReferenceBuilder()
                      .withKind("PersistentVolumeClaim")
                      .withApiVersion("v1")
                      .withNamespace(claimNamespace)
                      .withName(claimName)
                      .withUid(claimUid)
                      .build())
              .endSpec()
              .build();
      try {
        client.persistentVolumes().resource(updated).update();
        LOG.debug("Bound persistentvolume {} to claim {}/{}", volumeName, claimNamespace, claimName);
        return new VolumeOutcome.Written();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          var after = client.persistentVolumes().withName(volumeName).get();
          if (after != null && refersTo(after, claimNamespace, claimName, claimUid)) {
            return new VolumeOutcome.Written(); // a retried update whose first try took
          }
        }
        throw e;
      }
    } catch (KubernetesClientException e) {
      return new VolumeOutcome.Failed(describe(e));
    }
  }

  /**
   * Annotates claim {@code claimNamespace/claimName} with {@code volume.kubernetes.io/selected-node: nodeName},
   * which asks the claim's provisioner for a volume that node can reach.
   *
   * @param claimUid the uid of the claim chosen; a claim created again under that name is not annotated
   * @return {@link VolumeOutcome.Written} if the claim carries the annotation now; {@link
   *     VolumeOutcome.Failed} if it is gone, replaced, or changed while it was written
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public VolumeOutcome selectNode(String claimNamespace, String claimName, String claimUid, String nodeName)
      throws InterruptedException {
    writes.acquire();
    try {
      var claims = client.persistentVolumeClaims().inNamespace(claimNamespace);
      var current = claims.withName(claimName).get();
      if (current == null || !claimUid.equals(current.getMetadata().getUid())) {
        return notFound("persistentvolumeclaims", claimName);
      }
      if (nodeName.equals(selectedNode(current))) {
        return new VolumeOutcome.Written();
      }
      PersistentVolumeClaim updated =
          new PersistentVolumeClaimBuilder(current)
              .editMetadata()
              .addToAnnotations(SELECTED_NODE, nodeName)
              .endMetadata()
              .build();
      try {
        claims.resource(updated).update();
        LOG.debug("Selected node {} for claim {}/{}", nodeName, claimNamespace, claimName);
        return new VolumeOutcome.Written();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          var after = claims.withName(claimName).get();
          if (after != null && claimUid.equals(after.getMetadata().getUid()) && nodeName.equals(selectedNode(after))) {
            return new VolumeOutcome.Written();
          }
        }
        throw e;
      }
    } catch (KubernetesClientException e) {
      return new VolumeOutcome.Failed(describe(e));
    }
  }

  private static boolean refersTo(PersistentVolume volume, String namespace, String name, String uid) {
    var ref = volume.getSpec() == null ? null : volume.getSpec().getClaimRef();
    return ref != null
        && namespace.equals(ref.getNamespace())
        && name.equals(ref.getName())
        && uid.equals(ref.getUid());
  }

  private static @Nullable String selectedNode(PersistentVolumeClaim claim) {
    var annotations = claim.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(SELECTED_NODE);
  }

  /** The API server's NotFound message for the object. */
  private static VolumeOutcome notFound(String resource, String name) {
    return new VolumeOutcome.Failed(resource + " \"" + name + "\" not found");
  }

  private static String describe(KubernetesClientException e) {
    var status = e.getStatus();
    return status != null && status.getMessage() != null ? status.getMessage() : String.valueOf(e.getMessage());
  }
}
