package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A taint on a device (from its slice or a {@link DeviceTaintRule}): kube's {@code DeviceTaint}.
 *
 * @param key the taint key
 * @param value the value, empty if none
 * @param effect what the taint does
 * @param timeAdded when it was added; {@code null} when unknown
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceTaint(String key, String value, Effect effect, @Nullable Instant timeAdded) {

  /** kube's {@code DeviceTaintEffect}. */
  public enum Effect {
    /** {@code NoSchedule}: not allocated unless tolerated. */
    NO_SCHEDULE("NoSchedule"),
    /** {@code NoExecute}: not allocated unless tolerated, and evicted. */
    NO_EXECUTE("NoExecute"),
    /** {@code None}: informational only, never stops an allocation. */
    NONE("None");

    private final String kubeName;

    Effect(String kubeName) {
      this.kubeName = kubeName;
    }

    /** @return the name as kube writes it */
    public String kubeName() {
      return kubeName;
    }
  }
}
