package io.kubesched.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture against a stand-in for {@code tools/test-cluster/cluster.sh} that records how it is called and, for
 * {@code start}, writes an admin kubeconfig as the real script does (the client is built, never used).
 */
class TestClusterTest {

  private static final String FAKE_SCRIPT =
      """
      #!/usr/bin/env bash
      here=$(cd "$(dirname "$0")" && pwd)
      echo "$1 $2 args=${KUBESCHED_APISERVER_ARGS:-}" >>"$here/calls"
      if [ -f "$here/fail-$1" ]; then echo "cluster: $1 went wrong"; exit 3; fi
      case "$1" in
        start)
          mkdir -p "$2"
          [ -z "$(ls -A "$2")" ] || { echo "$2 is not empty"; exit 4; }
          cp "$here/admin.kubeconfig" "$2/admin.kubeconfig" ;;
        stop) rm -rf "$2" ;;
      esac
      """;

  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      clusters:
      - name: test
        cluster:
          server: https://127.0.0.1:1
      contexts:
      - name: admin
        context:
          cluster: test
          user: admin
      current-context: admin
      users:
      - name: admin
        user:
          token: secret
      """;

  @TempDir Path project;
  @TempDir Path work;
  private Path bin;

  @BeforeEach
  void fakeScript() throws IOException {
    bin = Files.createDirectories(project.resolve("tools").resolve("test-cluster"));
    var script = Files.writeString(bin.resolve("cluster.sh"), FAKE_SCRIPT);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(bin.resolve("admin.kubeconfig"), KUBECONFIG);
  }

  private List<String> calls() throws IOException {
    var calls = bin.resolve("calls");
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  @Test
  void starts_with_the_flags_restarts_each_part_and_stops_once() throws Exception {
    var state = work.resolve("state");
    var cluster =
        TestCluster.builder(project)
            .stateDirectory(state)
            .apiServerFlags("--disable-admission-plugins=TaintNodesByCondition", "--v=2")
            .requestTimeout(Duration.ofSeconds(60))
            .start();

    assertEquals(
        List.of("start " + state + " args=--disable-admission-plugins=TaintNodesByCondition --v=2"), calls());
    assertEquals(state, cluster.stateDirectory());
    assertEquals(state.resolve("admin.kubeconfig"), cluster.adminKubeconfig());
    assertEquals(state.resolve("scheduler.kubeconfig"), cluster.schedulerKubeconfig());
    assertEquals("https://127.0.0.1:1/", cluster.admin().getConfiguration().getMasterUrl());
    assertEquals(60_000, cluster.admin().getConfiguration().getRequestTimeout());
    assertTrue(cluster.admin().getConfiguration().isHttp2Disable());

    cluster.restartApiServer();
    cluster.restartEtcd();
    cluster.close();
    cluster.close();

    assertEquals(List.of("restart-apiserver " + state, "restart-etcd " + state, "stop " + state),
        calls().subList(1, 4).stream().map(c -> c.substring(0, c.indexOf(" args="))).toList());
    assertEquals(4, calls().size(), "stopped once: " + calls());
    assertFalse(Files.exists(state));
    assertThrows(IllegalStateException.class, cluster::restartApiServer);
    assertThrows(IllegalStateException.class, cluster::restartEtcd);
  }

  @Test
  void without_a_state_directory_each_cluster_gets_a_new_empty_one() throws Exception {
    try (var first = TestCluster.builder(project).start();
        var second = TestCluster.builder(project).start()) {
      assertNotEquals(first.stateDirectory(), second.stateDirectory());
      assertTrue(Files.exists(first.adminKubeconfig()));
      assertTrue(Files.exists(second.adminKubeconfig()));
    }
  }

  @Test
  void a_failed_start_says_why_with_the_scripts_output() throws IOException {
    Files.writeString(bin.resolve("fail-start"), "");

    var failure =
        assertThrows(
            ClusterScriptException.class,
            () -> TestCluster.builder(project).stateDirectory(work.resolve("state")).start());

    assertEquals(3, failure.exitStatus());
    assertEquals("cluster: start went wrong\n", failure.output());
    assertTrue(failure.getMessage().contains("cluster.sh start " + work.resolve("state") + " failed (exit 3)"),
        failure.getMessage());
  }

  @Test
  void a_cluster_whose_client_cannot_be_made_is_stopped_again() throws IOException {
    Files.writeString(bin.resolve("admin.kubeconfig"), "clusters: [not, a, kubeconfig");
    var state = work.resolve("state");

    assertThrows(RuntimeException.class, () -> TestCluster.builder(project).stateDirectory(state).start());

    assertEquals(List.of("start " + state, "stop " + state), calls().stream()
        .map(c -> c.substring(0, c.indexOf(" args=")))
        .toList());
  }

  @Test
  void a_failed_stop_is_reported_and_not_retried() throws Exception {
    var state = work.resolve("state");
    var cluster = TestCluster.builder(project).stateDirectory(state).start();
    Files.writeString(bin.resolve("fail-stop"), "");

    var failure = assertThrows(ClusterScriptException.class, cluster::close);
    cluster.close();

    assertEquals("cluster: stop went wrong\n", failure.output());
    assertEquals(2, calls().size(), "one stop: " + calls());
  }

  @Test
  void the_controller_manager_starts_after_the_api_server_once_and_stops_with_the_cluster() throws Exception {
    var state = work.resolve("state");
    var cluster = TestCluster.builder(project).stateDirectory(state).controllerManager().start();

    assertTrue(cluster.controllerManagerRunning());
    cluster.startControllerManager(); // runs already: nothing to do
    assertEquals(state.resolve("kube-controller-manager.log"), cluster.controllerManagerLog());
    cluster.close();

    assertEquals(List.of("start " + state, "start-controller-manager " + state, "stop " + state), calls().stream()
        .map(c -> c.substring(0, c.indexOf(" args=")))
        .toList());
    assertFalse(cluster.controllerManagerRunning());
    assertThrows(IllegalStateException.class, cluster::startControllerManager);
  }

  @Test
  void without_being_asked_for_the_controller_manager_is_started_only_by_the_test() throws Exception {
    var state = work.resolve("state");
    try (var cluster = TestCluster.builder(project).stateDirectory(state).start()) {
      assertFalse(cluster.controllerManagerRunning());
      assertEquals(List.of("start " + state), calls().stream()
          .map(c -> c.substring(0, c.indexOf(" args=")))
          .toList());

      cluster.startControllerManager();

      assertTrue(cluster.controllerManagerRunning());
      assertEquals("start-controller-manager " + state + " args=", calls().get(1));
    }
  }

  @Test
  void a_controller_manager_that_does_not_start_stops_the_cluster_again() throws IOException {
    Files.writeString(bin.resolve("fail-start-controller-manager"), "");
    var state = work.resolve("state");

    var failure =
        assertThrows(
            ClusterScriptException.class,
            () -> TestCluster.builder(project).stateDirectory(state).controllerManager().start());

    assertEquals("cluster: start-controller-manager went wrong\n", failure.output());
    assertEquals(List.of("start " + state, "start-controller-manager " + state, "stop " + state), calls().stream()
        .map(c -> c.substring(0, c.indexOf(" args=")))
        .toList());
    assertFalse(Files.exists(state));
  }

  @Test
  void the_builder_refuses_what_the_script_would_misread() {
    assertThrows(IllegalArgumentException.class, () -> TestCluster.builder(work));
    var builder = TestCluster.builder(project);
    assertThrows(IllegalArgumentException.class, () -> builder.apiServerFlags("v=2"));
    assertThrows(IllegalArgumentException.class, () -> builder.apiServerFlags("--v=2 --profiling=true"));
    assertThrows(IllegalArgumentException.class, () -> builder.controllerManagerFlags("kube-api-qps=5000"));
    assertThrows(IllegalArgumentException.class, () -> builder.controllerManagerFlags("--kube-api-qps=5000 --v=2"));
    assertThrows(IllegalArgumentException.class, () -> builder.requestTimeout(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> builder.requestTimeout(Duration.ofSeconds(-1)));
  }
}
