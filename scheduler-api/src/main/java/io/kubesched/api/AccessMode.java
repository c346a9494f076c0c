package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** How a persistent volume may be mounted ({@code spec.accessModes} of claims and volumes). */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum AccessMode {
  /** {@code ReadWriteOnce}: read-write by the pods of one node. */
  READ_WRITE_ONCE("ReadWriteOnce"),
  /** {@code ReadOnlyMany}: read-only by many nodes. */
  READ_ONLY_MANY("ReadOnlyMany"),
  /** {@code ReadWriteMany}: read-write by many nodes. */
  READ_WRITE_MANY("ReadWriteMany"),
  /** {@code ReadWriteOncePod}: read-write by a single pod in the whole cluster. */
  READ_WRITE_ONCE_POD("ReadWriteOncePod");

  private final String apiName;

  AccessMode(String apiName) {
    this.apiName = apiName;
  }

  /** @return the name the Kubernetes API gives it, e.g. {@code ReadWriteOncePod} */
  public String apiName() {
    return apiName;
  }
}
