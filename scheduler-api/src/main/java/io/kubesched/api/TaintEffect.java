package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Optional;
import org.apiguardian.api.API;

/** What a taint does to pods that do not tolerate it. */
@API(status = STABLE, since = "0.1.0")
public enum TaintEffect {
  /** New pods are not scheduled onto the node. */
  NO_SCHEDULE("NoSchedule"),
  /** The scheduler avoids the node when it can. */
  PREFER_NO_SCHEDULE("PreferNoSchedule"),
  /** New pods are not scheduled and running ones are evicted. */
  NO_EXECUTE("NoExecute");

  private final String apiName;

  TaintEffect(String apiName) {
    this.apiName = apiName;
  }

  /** @return the name the Kubernetes API uses, e.g. {@code NoSchedule} */
  public String apiName() {
    return apiName;
  }

  /** @return the effect the Kubernetes API calls {@code apiName}, if there is one */
  public static Optional<TaintEffect> fromApiName(String apiName) {
    for (var effect : values()) {
      if (effect.apiName.equals(apiName)) {
        return Optional.of(effect);
      }
    }
    return Optional.empty();
  }
}
