package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.facade.Client;
import io.kubesched.facade.FakeClusterFixture.Recorder;
import io.kubesched.facade.Options;
import io.kubesched.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * client-go's {@code rest_client_requests_total} and {@code leader_election_master_status} as a client built
 * through the facade records them against a real API server: what the server's {@code /metrics} shows,
 * read from the registry rather than over HTTP.
 */
class MetricsIT extends RealClusterTest {

  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration MARGIN = Duration.ofSeconds(3);

  @Test
  void requests_to_the_api_server_and_the_leadership_are_counted_under_client_gos_names() throws IOException {
    create(admin, node("node-0", "8", "8Gi", "110"));
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var lease = SCHEDULER + "-metrics-" + namespace;
    // The documented Lease Role, for this lease only: the restricted identity has no other lease right.
    LeaseRbac.grant(admin, namespace, lease);
    var options =
        schedulerOptions()
            .metrics(MicrometerMetrics.of(registry))
            .leaderElection(
                Options.LeaderElection.builder()
                    .lease(namespace, lease)
                    .leaseDuration(LEASE)
                    .renewDeadline(Duration.ofSeconds(2))
                    .retryPeriod(Duration.ofMillis(500))
                    .build())
            .build();
    var host = URI.create(admin.getMasterUrl().toString()).getRawAuthority();
    try (var client = Client.create(options);
        var controller = client.newPodController(Policies.firstByName(), new Recorder())) {
      controller.start();
      eventually(LEASE.plus(MARGIN), "it leads", controller::isLeader);
      create(admin, pod(namespace, "counted", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the pod is bound", () -> !nodeOf("counted").isEmpty());

      var scrape = registry.scrape();
      assertEquals(1.0, value(scrape, "leader_election_master_status\\{name=\"" + lease + "\"}"), scrape);
      // The informers' lists and watches, the lease's reads: answered 200 by the API server.
      assertTrue(
          value(scrape, "rest_client_requests_total\\{code=\"200\",host=\"" + Pattern.quote(host) + "\",method=\"GET\"}") >= 2,
          scrape);
      // The binding: a POST answered 201, through the binder's own HTTP client.
      assertTrue(
          value(scrape, "rest_client_requests_total\\{code=\"201\",host=\"" + Pattern.quote(host) + "\",method=\"POST\"}") >= 1,
          scrape);
      var took = value(scrape, "rest_client_request_duration_seconds_sum\\{host=\"" + Pattern.quote(host) + "\",verb=\"POST\"}");
      assertTrue(took > 0 && took < WAIT.toSeconds(), "POST latency " + took);
    }
  }

  /** The value of the one sample whose name and labels match {@code series}; 0 if none. */
  private static double value(String scrape, String series) {
    var matcher = Pattern.compile("(?m)^" + series + " (\\S+)$").matcher(scrape);
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }
}
