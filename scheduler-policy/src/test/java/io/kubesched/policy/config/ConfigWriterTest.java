package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigWriterTest {

  private static final String HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

  @Test
  void an_empty_file_is_written_with_kubes_defaults_in_kubes_order() {
    var written = SchedulerConfiguration.parse(HEADER, "t").toYaml();
    assertEquals(
        """
        apiVersion: "kubescheduler.config.k8s.io/v1"
        clientConnection:
          acceptContentTypes: ""
          burst: 100
          contentType: "application/vnd.kubernetes.protobuf"
          kubeconfig: ""
          qps: 50
        enableContentionProfiling: true
        enableProfiling: true
        kind: "KubeSchedulerConfiguration"
        leaderElection:
          leaderElect: true
          leaseDuration: "15s"
          renewDeadline: "10s"
          resourceLock: "leases"
          resourceName: "kube-scheduler"
          resourceNamespace: "kube-system"
          retryPeriod: "2s"
        parallelism: 16
        percentageOfNodesToScore: 0
        podInitialBackoffSeconds: 1
        podMaxBackoffSeconds: 10
        profiles:
        - schedulerName: "default-scheduler"
        """,
        written);
  }

  @Test
  void json_is_one_line_of_the_same() {
    var json = SchedulerConfiguration.parse(HEADER + "clientConnection: {qps: 1e10}\n", "t").toJson();
    assertFalse(json.contains("\n"));
    assertTrue(json.contains("\"qps\":10000000000"), json);
  }

  @Test
  void the_scheduler_name_kube_defaults_is_told_apart_from_one_written() {
    assertTrue(SchedulerConfiguration.parse(HEADER, "t").schedulerNameDefaulted());
    assertTrue(SchedulerConfiguration.parse(HEADER + "profiles: [{plugins: {}}]\n", "t").schedulerNameDefaulted());
    assertFalse(SchedulerConfiguration.parse(HEADER + "profiles: [{schedulerName: default-scheduler}]\n", "t")
        .schedulerNameDefaulted());
  }

  @Test
  void content_types_are_protobuf_or_json_and_anything_else_is_refused_naming_the_field() {
    var c = SchedulerConfiguration.parse(HEADER + "clientConnection: {contentType: application/json,"
        + " acceptContentTypes: 'application/vnd.kubernetes.protobuf,application/json'}\n", "t").clientConnection();
    assertEquals(ClientConnection.JSON, c.contentType());
    assertTrue(c.asksForProtobuf());
    assertFalse(new ClientConnection(1, 1, ClientConnection.JSON, ClientConnection.JSON).asksForProtobuf());
    var e = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse(
        HEADER + "clientConnection: {contentType: application/cbor}\n", "t"));
    assertTrue(e.getMessage().contains("clientConnection.contentType"), e.getMessage());
    assertTrue(e.getMessage().contains("application/cbor"), e.getMessage());
    var accept = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse(
        HEADER + "clientConnection: {acceptContentTypes: 'application/json,text/plain'}\n", "t"));
    assertTrue(accept.getMessage().contains("clientConnection.acceptContentTypes"), accept.getMessage());
  }

  @Test
  void leader_election_replaced_is_validated_as_the_files() {
    var c = SchedulerConfiguration.parse(HEADER, "t");
    var settings = new LeaderElectionSettings(true, Duration.ofSeconds(5), Duration.ofSeconds(10),
        Duration.ofSeconds(2), "leases", "n", "ns");
    var e = assertThrows(ConfigurationException.class, () -> c.withLeaderElection(settings, "flags"));
    assertTrue(e.getMessage().contains("flags"), e.getMessage());
    assertTrue(e.getMessage().contains("leaderElection.leaseDuration"), e.getMessage());
    var off = new LeaderElectionSettings(false, Duration.ofSeconds(5), Duration.ofSeconds(10),
        Duration.ofSeconds(2), "leases", "n", "ns");
    assertEquals(off, c.withLeaderElection(off, "flags").leaderElection());
  }
}
