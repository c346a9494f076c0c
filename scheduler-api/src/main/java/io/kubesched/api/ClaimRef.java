package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The claim a persistent volume is bound or reserved to ({@code spec.claimRef}).
 *
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's uid; empty when the volume was pre-bound by name only (it then binds to whatever
 *     claim of that name exists)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClaimRef(String namespace, String name, String uid) {

  /** @return whether this reference names {@code claim}: same namespace and name, and same uid if it has one */
  public boolean refersTo(PersistentVolumeClaim claim) {
    return namespace.equals(claim.namespace())
        && name.equals(claim.name())
        && (uid.isEmpty() || uid.equals(claim.uid()));
  }
}
