package io.kubesched.samples.boot;

import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * The sample: kubesched-spring-boot-starter makes the scheduling controller from {@code application.yaml}'s
 * {@code kubesched.*} properties and this class's {@link Policy} bean, starts it with the context (the cluster
 * listed) and closes it on SIGTERM (bindings in flight finished, the Lease released).
 *
 * <pre>{@code
 * java -jar kubesched-sample-spring-boot-app.jar --kubesched.kubeconfig=$HOME/.kube/config
 * }</pre>
 */
@SpringBootApplication
public class SampleApplication {

  private static final Logger LOG = LoggerFactory.getLogger(SampleApplication.class);

  /** How heavily spot capacity counts: above all of kube-scheduler's default scorers together. */
  static final int SPOT_WEIGHT = 20;

  public static void main(String[] args) {
    SpringApplication.run(SampleApplication.class, args);
  }

  /**
   * kube-scheduler's default profile (its filters still decide where a pod fits) plus {@link SpotNodes}, weighted
   * so that a spot node that fits wins over any other.
   */
  @Bean
  Policy spotFirst() {
    return DefaultPolicy.builder().scorer(new SpotNodes(), SPOT_WEIGHT).build();
  }

  /** Says, once the context is ready (the cluster listed), whose pods it schedules and whether it leads. */
  @Bean
  ApplicationListener<ApplicationReadyEvent> readyLine(Client client, Controller controller) {
    return event -> LOG.info(
        "Ready: scheduling the pods of {} (synced: {}, leader: {})",
        client.options().schedulerName(), controller.isRunning(), controller.isLeader());
  }
}
