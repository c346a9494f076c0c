/**
 * The scheduling loop: informers on nodes and pods, a queue of pods to place, a worker that asks the
 * {@link io.kubesched.api.FinderFunc} and binds. Internal: exported to the facade only.
 */
module io.kubesched.informer {
  requires static org.jspecify;
  requires transitive io.kubesched.api;
  requires transitive kubernetes.client.api;
  requires io.kubesched.adapter;
  requires io.kubesched.engine;
  requires io.kubesched.policy; // GroupPlacement: a pod group's all-or-nothing trial
  requires io.kubesched.binder;
  requires kubernetes.model.core;
  requires kubernetes.model.storageclass;
  requires kubernetes.model.policy;
  requires kubernetes.model.common;
  requires org.slf4j;

  exports io.kubesched.informer to
      io.kubesched.facade;
}
