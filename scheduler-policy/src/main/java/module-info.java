/**
 * Built-in placement policies with kube-scheduler's semantics: filters, scores, the engine that runs them
 * ({@link io.kubesched.policy.Policy}, a {@link io.kubesched.api.FinderFunc}), explanations, and the Policy
 * file. Pure functions over the api's records; no Kubernetes client.
 */
module io.kubesched.policy {
  requires static org.jspecify;
  requires transitive io.kubesched.api;
  requires tools.jackson.databind;
  requires tools.jackson.dataformat.yaml;

  exports io.kubesched.policy;
  exports io.kubesched.policy.framework;
  exports io.kubesched.policy.plugins;
  exports io.kubesched.policy.config;
}
