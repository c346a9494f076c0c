package io.kubesched.binder;

/** How a binding is written. Chosen by whoever created the client; never guessed from errors. */
public enum BindMode {
  /** POST to the pod's {@code binding} subresource, as kube-scheduler does. For every real API server. */
  SUBRESOURCE,
  /**
   * Update {@code spec.nodeName} directly. Only for fabric8's mock server, which does not implement the
   * binding subresource (in CRUD mode it answers the POST with 409 and assigns nothing); a real API server
   * refuses this update. The update is locked to the version read; when it is refused (409) and the pod,
   * read again, is still unbound (a status write came between), it is made again on that version, up to three
   * times.
   */
  SET_NODE_NAME
}
