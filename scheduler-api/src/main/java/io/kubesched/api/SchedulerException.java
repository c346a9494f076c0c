package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/** The base of every exception the library throws on purpose. Unchecked. */
@API(status = STABLE, since = "0.1.0")
public class SchedulerException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong, naming the object, field and value concerned
   */
  public SchedulerException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, naming the object, field and value concerned
   * @param cause the underlying failure, if any
   */
  public SchedulerException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
