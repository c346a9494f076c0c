/**
 * Internal: a fabric8 HTTP client whose requests run on the calling thread, over kept-alive HTTP/1.1
 * connections; the scheduler binds pods through it. Only the client module may use it (and the end-to-end
 * benchmark's bind ceiling, on the class path).
 */
module io.kubesched.http {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires io.kubesched.fabric8;

  exports io.kubesched.http to
      io.kubesched.k8s;
}
