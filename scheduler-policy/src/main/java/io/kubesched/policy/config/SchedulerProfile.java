package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.policy.Policy;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One profile of a KubeSchedulerConfiguration, after kube-scheduler 1.37's defaulting: the scheduler name its pods
 * carry in {@code spec.schedulerName}, the {@link Policy} that places them, and the plugins kube-scheduler would run
 * at each extension point.
 *
 * @param schedulerName the profile's {@code schedulerName}
 * @param policy its filters (the {@code filter} point's plugins this library implements, in kube's order), scorers
 *     (the {@code score} point's, with their weights), preemption (on when {@code DefaultPreemption} is at {@code
 *     postFilter}, with its arguments) and {@code percentageOfNodesToScore} (the profile's, else the
 *     configuration's); a new random seed for ties
 * @param enabledPlugins by extension point ({@code preEnqueue}, {@code queueSort}, {@code preFilter}, {@code
 *     filter}, {@code postFilter}, {@code preScore}, {@code score}, {@code reserve}, {@code permit}, {@code
 *     preBind}, {@code bind}, {@code postBind}, {@code placementGenerate}, {@code placementScore}, {@code
 *     podGroupPostFilter}; only those with plugins), the plugins in the order kube-scheduler's framework runs them
 *     after {@code multiPoint} expansion, as {@code Name} or, at {@code score} and {@code placementScore}, {@code
 *     Name:weight}: what kube-scheduler logs at start ({@code "the scheduler starts to work with those plugins"}).
 *     It includes the plugins that are the loop's ({@code PrioritySort}, {@code DefaultBinder}, {@code
 *     SchedulingGates}, {@code DefaultPreemption}) and those of kube's default profile this library does not
 *     implement ({@code DynamicResources}), which the policy leaves out.
 */
@API(status = MAINTAINED, since = "0.1.0")
public record SchedulerProfile(String schedulerName, Policy policy, Map<String, List<String>> enabledPlugins) {

  /** Copies {@code enabledPlugins}, keeping its order. */
  public SchedulerProfile {
    Objects.requireNonNull(schedulerName, "schedulerName");
    Objects.requireNonNull(policy, "policy");
    var copy = new LinkedHashMap<String, List<String>>();
    enabledPlugins.forEach((point, plugins) -> copy.put(point, List.copyOf(plugins)));
    enabledPlugins = Collections.unmodifiableMap(copy);
  }
}
