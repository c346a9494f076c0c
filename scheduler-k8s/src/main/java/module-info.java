/**
 * Internal: creates the fabric8 client the scheduler talks through (in-cluster, from a kubeconfig, or an
 * embedded fake cluster). Only the facade may use it.
 */
module io.kubesched.k8s {
  requires static org.jspecify;
  requires static kubernetes.server.mock;
  requires static mockwebserver;
  requires transitive kubernetes.client.api;
  requires io.kubesched.api;
  requires io.kubesched.http;
  requires io.kubesched.fabric8;
  requires kubernetes.client;
  requires java.net.http;
  requires kubernetes.model.common;
  requires kubernetes.model.core;
  requires kubernetes.model.apps;
  requires kubernetes.model.coordination;
  requires kubernetes.model.events;
  requires kubernetes.model.policy;
  requires kubernetes.model.resource;
  requires kubernetes.model.storageclass;
  requires org.slf4j;

  exports io.kubesched.k8s to
      io.kubesched.facade;
}
