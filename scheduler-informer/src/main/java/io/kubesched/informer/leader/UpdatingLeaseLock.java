package io.kubesched.informer.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.jspecify.annotations.Nullable;

/**
 * fabric8's {@code LeaseLock}, renewing with an update (a PUT carrying the resource version last read) instead of
 * fabric8's JSON merge patch, so that the Lease needs exactly the rights kube-scheduler's own role has: {@code
 * create}, and {@code get} and {@code update} on the named Lease only (docs/operations.md's RBAC). A write that
 * lost a race fails with 409 Conflict, as the patch's resource-version precondition did.
 *
 * <p>Called by fabric8's elector on its thread, one call at a time (fabric8 synchronizes the lock's methods).
 */
final class UpdatingLeaseLock extends LeaseLock {

  private volatile @Nullable String readVersion;

  UpdatingLeaseLock(String namespace, String name, String identity) {
    super(namespace, name, identity);
  }

  /** Remembers the resource version of the Lease fabric8 has just read, for the next {@link #update}. */
  @Override
  protected LeaderElectionRecord toRecord(Lease lease) {
    readVersion = lease.getMetadata() == null ? null : lease.getMetadata().getResourceVersion();
    return super.toRecord(lease);
  }

  @Override
  public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
    var version = readVersion;
    if (version == null) {
      throw new KubernetesClientException("Not updating the leader lock " + describe() + ": it was not read first");
    }
    var written = client.resource(toResource(record, getObjectMeta(version))).update();
    readVersion = written.getMetadata().getResourceVersion();
  }
}
