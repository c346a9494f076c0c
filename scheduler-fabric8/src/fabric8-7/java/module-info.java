/**
 * Internal: what differs between the fabric8 lines, here for fabric8 7 and Jackson 2. Exported only to the
 * library's modules that talk to fabric8.
 */
module io.kubesched.fabric8 {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive io.kubesched.api;
  requires kubernetes.client;
  // fabric8 7's JDK HTTP client, whose factory InlineHttpClientFactory extends: compiled against 7.5, whose jar
  // names no module (so its name comes from the file name); from 7.6 on it is io.fabric8.kubernetes.client.jdkhttp.
  // So it is optional here, and Fabric8CompatImpl reads the module that holds the factory, whatever its name.
  requires static kubernetes.httpclient.jdk;
  requires java.net.http;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
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
      com.fasterxml.jackson.databind;
}
