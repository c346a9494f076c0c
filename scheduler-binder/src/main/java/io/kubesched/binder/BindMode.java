package io.kubesched.binder;

/** How a binding is written. Chosen by whoever created the client; never guessed from errors. */
public enum BindMode {
  /** POST to the pod's {@code binding} subresource, as kube-scheduler does. For every real API server. */
  SUBRESOURCE,
  /**
   * Update {@code spec.nodeName} directly. Only for fabric8's mock server, which stores a Binding as an
   * object of its own and never assigns the pod; a real API server refuses this update.
   */
  SET_NODE_NAME
}
