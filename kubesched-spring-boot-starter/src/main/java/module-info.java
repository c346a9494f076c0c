/**
 * Spring Boot auto-configuration for kubesched: a scheduling controller whose lifecycle is the application
 * context's, its policy from the application's {@code FinderFunc} bean or a KubeSchedulerConfiguration file,
 * its connection from the application's fabric8 {@code KubernetesClient} bean where there is one, a health
 * indicator and metrics in the application's Micrometer registry. Spring Boot 4 with fabric8 8, or Spring Boot
 * 3.5 with kubesched's fabric8 7 line.
 */
module io.kubesched.spring {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  requires transitive io.kubesched.facade;
  requires io.kubesched.policy;
  requires org.slf4j;
  requires spring.beans;
  requires spring.context;
  requires spring.core;
  requires spring.boot;
  requires spring.boot.autoconfigure;
  requires static spring.boot.health; // Spring Boot 4's health indicator
  requires static spring.boot.actuator; // Spring Boot 3.5's
  requires static io.kubesched.micrometer;
  requires static micrometer.core;

  exports io.kubesched.spring;

  // Spring reads the configuration classes and binds the properties by reflection.
  opens io.kubesched.spring to spring.core, spring.beans, spring.context, spring.boot;
}
