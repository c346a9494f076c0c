package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/** Options that cannot work: a blank name, a missing kubeconfig, a fake cluster without its dependency. */
@API(status = STABLE, since = "0.1.0")
public class ConfigurationException extends SchedulerException {

  private static final long serialVersionUID = 1L;

  /** @param message which option is wrong, its value and what would be valid */
  public ConfigurationException(String message) {
    super(message);
  }

  /**
   * @param message which option is wrong, its value and what would be valid
   * @param cause the underlying failure, if any
   */
  public ConfigurationException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
