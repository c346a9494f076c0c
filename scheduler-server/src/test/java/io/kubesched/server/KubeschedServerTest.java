package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.config.PluginRegistry;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server with plugins of one's own: what its configuration may name, before it connects. */
class KubeschedServerTest {

  /** The arguments of {@link Nothing}. */
  record NothingArgs(String why) {}

  /** Refuses every node, for a reason from its arguments. */
  record Nothing(NothingArgs args) implements Filter {
    @Override
    public String name() {
      return "Nothing";
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return FilterResult.unschedulable(io.kubesched.policy.framework.Reason.of(args.why()));
    }
  }

  private static final String CONFIG = """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
      - schedulerName: custom
        plugins: {filter: {enabled: [{name: Nothing}]}}
        pluginConfig: [{name: Nothing, args: {why: closed}}]
      """;

  @TempDir Path dir;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private String run(PluginRegistry plugins) throws Exception {
    var config = Files.writeString(dir.resolve("config.yaml"), CONFIG);
    int status = Main.run(
        List.of("--config", config.toString(), "--kubeconfig", dir.resolve("missing").toString()),
        Map.of(),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        plugins);
    assertEquals(Main.BAD_CONFIG, status, "no cluster to connect to");
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void the_default_program_refuses_a_configuration_naming_a_plugin_of_ones_own() throws Exception {
    var message = run(KubeschedServer.builder().build().plugins());
    assertTrue(message.contains("\"Nothing\" is not a plugin of kube-scheduler 1.37; valid: ["), message);
  }

  @Test
  void with_the_plugin_registered_the_configuration_is_read_and_the_server_goes_on_to_connect() throws Exception {
    var server = KubeschedServer.builder().filter("Nothing", NothingArgs.class, Nothing::new).build();
    var message = run(server.plugins());
    assertFalse(message.contains("Nothing"), message);
    assertTrue(message.contains("missing"), "the kubeconfig is the next problem: " + message);
  }

  @Test
  void the_builder_registers_into_the_servers_registry_and_refuses_kubes_names() {
    var server = KubeschedServer.builder()
        .filter("Nothing", NothingArgs.class, Nothing::new)
        .scorer("Flat", NothingArgs.class, args -> new io.kubesched.policy.framework.Scorer() {
          @Override
          public String name() {
            return "Flat";
          }

          @Override
          public long score(PodInfo pod, NodeInfo node) {
            return 0;
          }
        })
        .build();
    assertEquals(List.of("Flat", "Nothing"), List.copyOf(server.plugins().names()));
    var kube = assertThrows(IllegalArgumentException.class,
        () -> KubeschedServer.builder().filter("NodeAffinity", NothingArgs.class, Nothing::new));
    assertTrue(kube.getMessage().contains("is a kube-scheduler plugin's name"), kube.getMessage());
  }
}
