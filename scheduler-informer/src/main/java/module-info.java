/**
 * The scheduling loop around the engine's queue and cache: the informers and their handlers ({@code watch}),
 * the scheduling, binding, preemption and pod group cycles ({@code cycle}), leader election ({@code leader}),
 * what the loop reports ({@code report}), and {@code SchedulingLoop}, which composes them. Internal: only what
 * the facade builds a loop with is exported, to the facade only.
 */
module io.kubesched.informer {
  requires static org.jspecify;
  requires transitive io.kubesched.api;
  requires transitive kubernetes.client.api;
  requires io.kubesched.adapter;
  requires io.kubesched.engine;
  requires io.kubesched.policy; // GroupPlacement: a pod group's all-or-nothing trial
  requires io.kubesched.binder;
  requires io.kubesched.fabric8;
  requires kubernetes.model.coordination; // Lease: UpdatingLeaseLock
  requires kubernetes.model.core;
  requires kubernetes.model.storageclass;
  requires kubernetes.model.policy;
  requires kubernetes.model.resource; // the dynamic resource allocation informers
  requires kubernetes.model.common;
  requires org.slf4j;

  // SchedulingLoop and ControllerSettings; LeaderSettings, a part of the settings; NodeListing, the facade's
  // node listing. The cycles and the reports stay inside.
  exports io.kubesched.informer to
      io.kubesched.facade;
  exports io.kubesched.informer.leader to
      io.kubesched.facade;
  exports io.kubesched.informer.watch to
      io.kubesched.facade;
}
