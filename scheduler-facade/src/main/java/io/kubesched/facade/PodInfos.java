package io.kubesched.facade;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodInfo;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A fabric8 {@link Pod} as the scheduler reads it, for what-if simulations of pods that are not in the cluster yet
 * (read from YAML, or built in code): the same conversion the controllers apply to every pod they watch, with
 * Kubernetes' rules for effective requests. Pure and thread-safe.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class PodInfos {

  private PodInfos() {}

  /**
   * @param pod the pod; a missing {@code metadata.uid} stays empty (a simulation refuses two pods with one uid,
   *     so give pods that are not in the cluster one each)
   * @return what a controller would read of it
   * @throws MalformedObjectException naming the pod, the field and the value, if a field cannot be read (a
   *     quantity, a toleration, a selector ...)
   */
  public static PodInfo of(Pod pod) {
    return PodAdapter.toPodInfo(Objects.requireNonNull(pod, "pod"));
  }
}
