/**
 * The library's entry points: {@link io.kubesched.facade.Client} connects to a cluster and makes {@link
 * io.kubesched.facade.Controller}s that place pods with a {@link io.kubesched.api.FinderFunc}.
 */
module io.kubesched.facade {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  requires transitive io.kubesched.api;
  requires transitive kubernetes.client.api;
  requires transitive io.kubesched.policy; // SchedulerSetup takes a KubeSchedulerConfiguration
  requires io.kubesched.k8s;
  requires io.kubesched.informer;
  requires io.kubesched.adapter; // PodInfos: a fabric8 Pod as the scheduler reads it
  requires io.kubesched.binder;
  requires io.kubesched.fabric8;
  requires org.slf4j;

  exports io.kubesched.facade;
}
