package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One attribute of a {@link Device}: exactly one of an integer, a boolean, a string or a semantic version, as
 * kube's {@code DeviceAttribute} (the list-typed values are alpha in 1.37 and not modelled).
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface DeviceAttribute {

  /** @param value the integer */
  record IntValue(long value) implements DeviceAttribute {}

  /** @param value the boolean */
  record BoolValue(boolean value) implements DeviceAttribute {}

  /** @param value the string */
  record StringValue(String value) implements DeviceAttribute {}

  /** @param value the semantic version as written (kube validates it as semver 2.0.0) */
  record VersionValue(String value) implements DeviceAttribute {}
}
