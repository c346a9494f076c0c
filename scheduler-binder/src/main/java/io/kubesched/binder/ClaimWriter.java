package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API writes of kube-scheduler's DynamicResources PreBind and Unreserve ({@code bindClaim} and {@code
 * Unreserve} in the plugin's dynamicresources.go): a claim the scheduler allocated gets kube's delete-protection
 * finalizer (an update of the claim) and then its allocation; every claim of the pod gets the pod in {@code
 * status.reservedFor} and an {@code allocationTimestamp} if it has none (an update of the status). Unreserve
 * takes the pod out of {@code reservedFor} again with a strategic merge patch, which needs no fresh copy. PostFilter's
 * deallocation of a claim no node can use clears its status with a merge patch ({@link #deallocate}).
 *
 * <p>Each update carries the {@code resourceVersion} read, so a change made meanwhile is a conflict; as kube, a
 * conflict reads the claim again and tries again (at most {@value #ATTEMPTS} times), and a claim allocated
 * elsewhere meanwhile fails the write instead of being overwritten.
 *
 * <p>Each write takes one token of the {@link TokenBucket} shared with the bindings. Thread-safe; blocks the
 * calling thread for the requests.
 */
public final class ClaimWriter {

  /** The finalizer kube puts on an allocated claim, so it is not deleted while in use. */
  public static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  /** How many times kube's {@code retry.DefaultRetry} tries an update that conflicts. */
  static final int ATTEMPTS = 5;

  private static final Logger LOG = LoggerFactory.getLogger(ClaimWriter.class);

  private final KubernetesClient client;
  private final TokenBucket writes;
  private final Clock clock;

  /**
   * @param client the client to write with; not closed by this writer
   * @param writes the rate limit of the scheduler's writes
   * @param clock for the allocation timestamp
   */
  public ClaimWriter(KubernetesClient client, TokenBucket writes, Clock clock) {
    this.client = client;
    this.writes = writes;
    this.clock = clock;
  }

  /**
   * Reserves claim {@code namespace/name} for a pod, writing {@code allocation} first when given.
   *
   * @param claimUid the uid of the claim decided on; a claim created again under that name is not written
   * @param allocation what the scheduler allocated; {@code null} for a claim that was already allocated
   * @param podName the pod's name
   * @param podUid the pod's uid
   * @return {@link ClaimOutcome.Written} when the claim shows the reservation now; {@link ClaimOutcome.Failed}
   *     with kube's message otherwise
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public ClaimOutcome reserve(
      String namespace, String name, String claimUid, @Nullable AllocationResult allocation, String podName,
      String podUid) throws InterruptedException {
    var what = allocation != null ? "add allocation and reservation to claim " : "add reservation to claim ";
    var claims = client.resources(ResourceClaim.class).inNamespace(namespace);
    try {
      for (int attempt = 1; ; attempt++) {
        writes.acquire();
        var claim = current(claims.withName(name).get(), claimUid);
        if (claim == null) {
          return failed(what, namespace, name, "resourceclaims.resource.k8s.io \"" + name + "\" not found");
        }
        if (claim.getMetadata().getDeletionTimestamp() != null) {
          return new ClaimOutcome.Failed("claim " + namespace + "/" + name + " got deleted in the meantime");
        }
        if (reservedFor(claim, podUid)) {
          return new ClaimOutcome.Written(); // an earlier write whose answer was lost
        }
        var status = claim.getStatus();
        var current = status == null ? null : status.getAllocation();
        if (allocation != null && current != null) {
          return new ClaimOutcome.Failed("claim " + namespace + "/" + name + " got allocated elsewhere in the meantime");
        }
        if (allocation == null && current == null) {
          return new ClaimOutcome.Failed("claim " + namespace + "/" + name + " got deallocated elsewhere in the meantime");
        }
        try {
          if (allocation != null && !claim.getMetadata().getFinalizers().contains(FINALIZER)) {
            claim.getMetadata().getFinalizers().add(FINALIZER);
            claim = claims.resource(claim).update();
            writes.acquire();
          }
          write(claim, allocation, podName, podUid);
          claims.resource(claim).updateStatus();
          LOG.debug("Reserved resourceclaim {}/{} for pod {}", namespace, name, podName);
          return new ClaimOutcome.Written();
        } catch (KubernetesClientException e) {
          if (e.getCode() != 409 || attempt == ATTEMPTS) {
            return failed(what, namespace, name, describe(e));
          }
        }
      }
    } catch (KubernetesClientException e) {
      return failed(what, namespace, name, describe(e));
    }
  }

  /**
   * Takes pod {@code podUid} out of claim {@code namespace/name}'s {@code reservedFor} (kube's Unreserve): a
   * strategic merge patch of the status, conditioned on the claim's uid. Best effort: a failure is logged, and the
   * pod's next attempt finds the claim as it is.
   *
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public void unreserve(String namespace, String name, String claimUid, String podUid) throws InterruptedException {
    writes.acquire();
    var patch =
        "{\"metadata\":{\"uid\":\"" + claimUid + "\"},\"status\":{\"reservedFor\":[{\"$patch\":\"delete\",\"uid\":\""
            + podUid + "\"}]}}";
    try {
      client.resources(ResourceClaim.class).inNamespace(namespace).withName(name).subresource("status")
          .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    } catch (KubernetesClientException e) {
      LOG.warn("Could not take pod uid {} out of the reservedFor of resourceclaim {}/{}: {}", podUid, namespace, name,
          describe(e));
    }
  }

  /**
   * Creates the claim for a pod's extended resources backed by DRA (kube's {@code createExtendedResourceClaimInAPI}),
   * as {@code claim} describes it: {@code generateName}, the pod as controlling owner, the annotation, the requests;
   * no status (the allocation is written by {@link #reserve} next).
   *
   * @return {@link ClaimOutcome.Created} with the generated name and uid; {@link ClaimOutcome.Failed} with kube's
   *     message otherwise
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public ClaimOutcome create(ResourceClaim claim) throws InterruptedException {
    var namespace = claim.getMetadata().getNamespace();
    writes.acquire();
    try {
      var created = client.resources(ResourceClaim.class).inNamespace(namespace).resource(claim).create();
      LOG.debug("Created resourceclaim {}/{} for extended resources", namespace, created.getMetadata().getName());
      return new ClaimOutcome.Created(created.getMetadata().getName(), created.getMetadata().getUid());
    } catch (KubernetesClientException e) {
      return new ClaimOutcome.Failed("create claim for extended resources " + namespace + "/: " + describe(e));
    }
  }

  /**
   * Deletes a claim this scheduler created for a pod whose attempt failed (kube's {@code deleteClaim}): the
   * delete-protection finalizer is taken off first (an update, tried again on a conflict), then the claim is
   * deleted (the uid checked just before). Best effort: a failure is logged. Kube's DynamicResources PostFilter
   * deletes such a claim left from an earlier attempt the same way.
   *
   * @return whether this call deleted the claim (false if it was gone, or replaced, already, or the write failed)
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public boolean delete(String namespace, String name, String claimUid) throws InterruptedException {
    var claims = client.resources(ResourceClaim.class).inNamespace(namespace);
    try {
      for (int attempt = 1; ; attempt++) {
        writes.acquire();
        var claim = current(claims.withName(name).get(), claimUid);
        if (claim == null) {
          return false; // gone already
        }
        if (!claim.getMetadata().getFinalizers().contains(FINALIZER)) {
          break;
        }
        claim.getMetadata().getFinalizers().remove(FINALIZER);
        try {
          writes.acquire();
          claims.resource(claim).update();
          break;
        } catch (KubernetesClientException e) {
          if (e.getCode() != 409 || attempt == ATTEMPTS) {
            throw e;
          }
        }
      }
      writes.acquire();
      claims.withName(name).delete(); // the uid was checked just before; a claim made again meanwhile is rare
      LOG.debug("Deleted resourceclaim {}/{}", namespace, name);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        LOG.warn("Could not delete resourceclaim {}/{} created for a pod's extended resources: {}", namespace, name,
            describe(e));
      }
      return false;
    }
  }

  /**
   * Writes the pod's {@code status.extendedResourceClaimStatus} (kube's {@code patchPodExtendedResourceClaimStatus}):
   * the claim created for its extended resources and which request serves which container, with a strategic merge
   * merge patch of {@code pods/status} (the list replaced whole) conditioned on the pod's uid.
   *
   * @return {@link ClaimOutcome.Written}, or {@link ClaimOutcome.Failed} with kube's message
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public ClaimOutcome writeExtendedResourceClaimStatus(
      String namespace, String podName, String podUid, String claimName,
      List<ContainerExtendedResourceRequest> mappings) throws InterruptedException {
    if (mappings.isEmpty()) {
      return new ClaimOutcome.Failed("nil or empty request mappings, no update of pod " + namespace + "/" + podName
          + " ExtendedResourceClaimStatus");
    }
    var json = new StringBuilder("{\"metadata\":{\"uid\":").append(quoted(podUid))
        .append("},\"status\":{\"extendedResourceClaimStatus\":{\"requestMappings\":[");
    for (int i = 0; i < mappings.size(); i++) {
      var m = mappings.get(i);
      json.append(i == 0 ? "" : ",").append("{\"containerName\":").append(quoted(m.getContainerName()))
          .append(",\"resourceName\":").append(quoted(m.getResourceName()))
          .append(",\"requestName\":").append(quoted(m.getRequestName())).append('}');
    }
    json.append("],\"resourceClaimName\":").append(quoted(claimName)).append("}}}");
    writes.acquire();
    try {
      client.pods().inNamespace(namespace).withName(podName).subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), json.toString());
      return new ClaimOutcome.Written();
    } catch (KubernetesClientException e) {
      return new ClaimOutcome.Failed(
          "update pod " + namespace + "/" + podName + " ExtendedResourceClaimStatus: " + describe(e));
    }
  }

  private static String quoted(@Nullable String text) {
    var out = new StringBuilder("\"");
    for (char c : String.valueOf(text).toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  /**
   * Deallocates claim {@code namespace/name} (kube's DynamicResources PostFilter): one JSON merge patch of the status
   * that clears {@code allocation}, {@code reservedFor} and {@code devices}, conditioned on the claim's uid and on
   * the {@code resourceVersion} the decision saw, as kube's status update of its cached copy is, so a claim changed
   * since (reserved for a pod, allocated again, replaced) is left as it is. The finalizer stays: kube's resource
   * claim controller owns it once the claim is not allocated. Best effort: a failure is logged, and the pod's next
   * attempt finds the claim as it is and asks again.
   *
   * @return whether the claim was deallocated
   * @throws InterruptedException if the thread is interrupted while it waits for a token
   */
  public boolean deallocate(String namespace, String name, String claimUid, String resourceVersion)
      throws InterruptedException {
    writes.acquire();
    var patch =
        "{\"metadata\":{\"uid\":\"" + claimUid + "\",\"resourceVersion\":\"" + resourceVersion + "\"},"
            + "\"status\":{\"allocation\":null,\"reservedFor\":null,\"devices\":null}}";
    try {
      client.resources(ResourceClaim.class).inNamespace(namespace).withName(name).subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      LOG.debug("Deallocated resourceclaim {}/{}", namespace, name);
      return true;
    } catch (KubernetesClientException e) {
      LOG.info("Did not deallocate resourceclaim {}/{}: {}", namespace, name, describe(e));
      return false;
    }
  }

  private void write(ResourceClaim claim, @Nullable AllocationResult allocation, String podName, String podUid) {
    var status = claim.getStatus();
    if (status == null) {
      status = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus();
      claim.setStatus(status);
    }
    if (allocation != null) {
      status.setAllocation(allocation);
    }
    var result = Objects.requireNonNull(status.getAllocation());
    if (result.getAllocationTimestamp() == null) {
      result.setAllocationTimestamp(
          DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS)));
    }
    var reserved = new ArrayList<>(status.getReservedFor());
    reserved.add(
        new ResourceClaimConsumerReferenceBuilder()
            .withResource("pods")
            .withName(podName)
            .withUid(podUid)
            .build());
    status.setReservedFor(reserved);
  }

  /** @return {@code claim} if it is the one of uid {@code claimUid}; {@code null} if gone or replaced */
  private static @Nullable ResourceClaim current(@Nullable ResourceClaim claim, String claimUid) {
    return claim != null && claimUid.equals(claim.getMetadata().getUid()) ? claim : null;
  }

  private static boolean reservedFor(ResourceClaim claim, String podUid) {
    var status = claim.getStatus();
    return status != null && status.getReservedFor().stream().anyMatch(ref -> podUid.equals(ref.getUid()));
  }

  private static ClaimOutcome failed(String what, String namespace, String name, String detail) {
    return new ClaimOutcome.Failed(what + namespace + "/" + name + ": " + detail);
  }

  private static String describe(KubernetesClientException e) {
    var status = e.getStatus();
    return status != null && status.getMessage() != null ? status.getMessage() : String.valueOf(e.getMessage());
  }
}
