/**
 * Built-in placement policies with kube-scheduler's semantics: filters, scores, the engine that runs them
 * ({@link io.kubesched.policy.Policy}, a {@link io.kubesched.api.FinderFunc}), explanations, and the Policy
 * file. Pure functions over the api's records; no Kubernetes client.
 */
module io.kubesched.policy {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  requires transitive io.kubesched.api;
  requires tools.jackson.databind;
  requires tools.jackson.dataformat.yaml;
  requires dev.cel; // DRA's device selectors (scheduler-cel)
  requires re2j; // kube's regex functions in device selectors, RE2 as Go's regexp

  // The API: Policy and its builder, DefaultPolicy, explanations, pod groups and preemption's arguments.
  exports io.kubesched.policy;
  // The extension points users implement (Filter, Scorer, ...) and meet in explanations (FilterResult, Reason).
  exports io.kubesched.policy.framework;
  // The factories of the built-in plugins, and the arguments they take.
  exports io.kubesched.policy.plugins;
  exports io.kubesched.policy.plugins.args;
  // The Policy file and KubeSchedulerConfiguration readers.
  exports io.kubesched.policy.config;
  // To the informers only: the first DeviceClass listed starts CEL's warm-up (DeviceSelectors.warmUpInBackground).
  exports io.kubesched.policy.plugins.dynamicresources.cel to
      io.kubesched.informer;
  // Not exported: io.kubesched.policy.framework.runtime (the engine Policy runs), io.kubesched.policy.plugins.helper
  // and one package per built-in plugin (io.kubesched.policy.plugins.noderesources, ...).
}
