/**
 * Internal: what differs between the fabric8 lines, here for fabric8 8 and Jackson 3. Exported only to the
 * library's modules that talk to fabric8.
 */
module io.kubesched.fabric8 {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive io.kubesched.api;
  requires kubernetes.client;
  requires kubernetes.model.resource; // the DRA alpha fields fabric8 8 types
  requires io.fabric8.kubernetes.client.jdkhttp;
  requires java.net.http;
  requires tools.jackson.core;
  requires tools.jackson.databind;
  requires com.fasterxml.jackson.annotation;

  exports io.kubesched.fabric8 to
      io.kubesched.adapter,
      io.kubesched.http,
      io.kubesched.k8s,
      io.kubesched.informer,
      io.kubesched.facade,
      io.kubesched.crd,
      io.kubesched.server;
  // The mix-in's annotation is read by Jackson.
  opens io.kubesched.fabric8 to
      tools.jackson.databind;
}
