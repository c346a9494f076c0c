package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A request's toleration of device taints: kube's {@code DeviceToleration}.
 *
 * @param key the taint key it matches; empty matches every key (only with {@code Exists})
 * @param operator {@code Equal} or {@code Exists}, as kube writes them
 * @param value the value for {@code Equal}
 * @param effect the effect it matches; {@code null} matches every effect
 * @param tolerationSeconds for {@code NoExecute}, how long the taint is tolerated; {@code null} for ever
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceToleration(
    String key, String operator, String value, DeviceTaint.@Nullable Effect effect, @Nullable Long tolerationSeconds) {}
