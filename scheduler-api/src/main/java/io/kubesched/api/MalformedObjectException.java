package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A Kubernetes object the scheduler cannot read, such as a pod whose CPU request is {@code "12x"}. The
 * scheduler reports it for that object and goes on with the others; it never stops the loop.
 */
@API(status = STABLE, since = "0.1.0")
public class MalformedObjectException extends SchedulerException {

  private static final long serialVersionUID = 1L;

  private final String object;
  private final String field;
  private final String value;

  /**
   * @param object the object, as {@code pod namespace/name} or {@code node name}
   * @param field the path of the bad field, e.g. {@code spec.containers[app].resources.requests[cpu]}
   * @param value the bad value as found
   * @param problem why the value is wrong
   * @param cause the parser's exception, if any
   */
  public MalformedObjectException(
      String object, String field, String value, String problem, @Nullable Throwable cause) {
    super(object + ": " + field + " '" + value + "' " + problem, cause);
    this.object = object;
    this.field = field;
    this.value = value;
  }

  /** @return the object, as {@code pod namespace/name} or {@code node name} */
  public String object() {
    return object;
  }

  /** @return the path of the bad field */
  public String field() {
    return field;
  }

  /** @return the bad value as found */
  public String value() {
    return value;
  }
}
