/**
 * The {@code SchedulingPolicy} custom resource: its types (the CRD is generated from them) and the controller that
 * applies each one to a running scheduler's profile. Optional: a user who changes no policy at run time leaves it
 * out.
 */
module io.kubesched.crd {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  // The schema annotations: read from the class files by the CRD generator, not needed at run time.
  requires static generator.annotations;
  requires static crd.generator.api.v2;
  requires transitive io.kubesched.facade;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires kubernetes.model.events;
  requires io.kubesched.policy;
  requires io.kubesched.fabric8; // the lean serialization and sibling client the SchedulingPolicy informer watches with
  requires transitive com.fasterxml.jackson.annotation;
  requires org.slf4j;

  exports io.kubesched.crd;
  // fabric8 reads and writes the resource and its records with Jackson: Jackson 3 on fabric8 8, Jackson 2 on 7
  // (javac does not resolve the one absent; -Xlint:-module keeps it quiet).
  opens io.kubesched.crd to tools.jackson.databind, com.fasterxml.jackson.databind;
}
