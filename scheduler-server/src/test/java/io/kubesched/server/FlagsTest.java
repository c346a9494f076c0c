package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.LeaderElectionSettings;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FlagsTest {

  private static Flags parse(String line) {
    return Flags.parse(List.of(line.split(" ")));
  }

  @Test
  void only_the_config_is_required_the_rest_has_kubes_defaults() {
    var flags = parse("--config c.yaml");
    assertEquals(Path.of("c.yaml"), flags.config());
    assertEquals(Optional.empty(), flags.kubeconfig());
    assertTrue(flags.policyCrd());
    assertEquals(0, flags.verbosity());
    assertEquals("text", flags.loggingFormat());
    assertEquals(Flags.LeaderElectionFlags.NONE, flags.leaderElection());
    assertEquals(ServingOptions.defaults(), flags.serving());
    assertEquals(Optional.empty(), flags.writeConfigTo());
    assertEquals(Map.of(), flags.featureGates());
  }

  @Test
  void every_spelling_pflag_takes() throws Exception {
    for (var line : List.of("--config=c -v=2", "--config c -v 2", "--config c --v=2", "--config c --v 2",
        "--config c -v2")) {
      assertEquals(2, parse(line).verbosity(), line);
    }
    assertEquals(Optional.of(true), parse("--config c --leader-elect").leaderElection().leaderElect());
    assertEquals(Optional.of(false), parse("--config c --leader-elect=false").leaderElection().leaderElect());
    assertEquals(Optional.of(false), parse("--config c --leader-elect=0").leaderElection().leaderElect());
    assertEquals(3, parse("--config c -v=2 --v=3").verbosity(), "the last value wins");
    assertFalse(parse("--config c --no-policy-crd").policyCrd());
    assertFalse(parse("--config c --policy-crd=false").policyCrd());
    assertTrue(parse("--policy-crd --config c").policyCrd());
  }

  @Test
  void the_serving_flags_fill_the_serving_options() throws Exception {
    var flags = parse("--config c --secure-port=0 --bind-address 127.0.0.1 --tls-cert-file=c.pem"
        + " --tls-private-key-file k.pem --authentication-kubeconfig a --authorization-kubeconfig=z"
        + " --authorization-always-allow-paths=/healthz,/metrics --authorization-always-allow-paths /x*");
    assertEquals(
        new ServingOptions(0, InetAddress.getByName("127.0.0.1"), Optional.of(Path.of("c.pem")),
            Optional.of(Path.of("k.pem")), Optional.of(Path.of("a")), Optional.of(Path.of("z")),
            List.of("/healthz", "/metrics", "/x*")),
        flags.serving());
    assertEquals(List.of(), parse("--config c --authorization-always-allow-paths=").serving().alwaysAllowPaths());
    assertEquals(InetAddress.getByName("::1"), parse("--config c --bind-address=::1").serving().bindAddress());
  }

  @Test
  void leader_election_flags_given_replace_the_files_settings_and_only_those() {
    var flags = parse("--config c --leader-elect-lease-duration=1m30s --leader-elect-resource-name=mine"
        + " --leader-elect-resource-namespace ns --leader-elect-resource-lock=leases");
    var file = new LeaderElectionSettings(false, Duration.ofSeconds(20), Duration.ofSeconds(9),
        Duration.ofSeconds(3), "leases", "theirs", "other");
    assertEquals(
        new LeaderElectionSettings(false, Duration.ofSeconds(90), Duration.ofSeconds(9), Duration.ofSeconds(3),
            "leases", "mine", "ns"),
        flags.leaderElection().applyTo(file));
    assertEquals(file, Flags.LeaderElectionFlags.NONE.applyTo(file));
  }

  @Test
  void feature_gates_are_accepted_with_the_value_the_library_behaves_as() {
    assertEquals(
        Map.of("StorageCapacityScoring", true, "InterPodAffinityHostnameFastPath", false),
        parse("--config c --feature-gates=StorageCapacityScoring=true --feature-gates"
            + " InterPodAffinityHostnameFastPath=false").featureGates());
  }


  @Test
  void help_is_recognised_anywhere() {
    assertTrue(Flags.wantsHelp(List.of("--config", "c", "--help")));
    assertTrue(Flags.wantsHelp(List.of("-h")));
    assertFalse(Flags.wantsHelp(List.of("--config", "help")));
  }

  @Test
  void version_is_recognised_anywhere() {
    assertTrue(Flags.wantsVersion(List.of("--config", "c", "--version")));
    assertFalse(Flags.wantsVersion(List.of("--config", "version")));
    assertFalse(Flags.wantsVersion(List.of("-v")));
  }

  @Test
  void the_usage_lists_every_flag_with_kubes_defaults() {
    var usage = Flags.usage();
    assertTrue(usage.startsWith("usage: kubesched-server --config FILE [flags]"), usage);
    for (var flag : Flags.supported()) {
      assertTrue(usage.contains(flag), () -> usage + " should list " + flag);
    }
    assertTrue(usage.contains("10259"), usage);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                                   | --config FILE is required",
        "--v 1                                | --config FILE is required",
        "--config                             | --config needs a value",
        "--config --v 1                       | --config needs a value",
        "--config=                            | --config FILE is required",
        "--config c --port 80                 | --port is gone: the endpoints are served on --secure-port",
        "--config c --secure-port x           | --secure-port must be a number from 0 to 65535, was 'x'",
        "--config c --secure-port=65536       | --secure-port must be a number from 0 to 65535, was '65536'",
        "--config c --secure-port=-1          | --secure-port must be a number from 0 to 65535, was '-1'",
        "--config c -v=-1                     | -v must be a number from 0 to 2147483647, was '-1'",
        "--config c --v=NaN                   | -v must be a number from 0 to 2147483647, was 'NaN'",
        "--config c --v=2147483648            | -v must be a number from 0 to 2147483647, was '2147483648'",
        "--config c --logging-format=xml      | --logging-format must be text or json, was 'xml'",
        "--config c --leader-elect=yes        | --leader-elect must be true or false, was 'yes'",
        "--config c --leader-elect false      | unexpected argument 'false': kubesched-server takes flags only",
        "--config c --leader-elect-lease-duration=15 | --leader-elect-lease-duration must be a duration such as 15s, 1m30s or 300ms, was '15'",
        "--config c --leader-elect-retry-period=NaN  | --leader-elect-retry-period must be a duration such as 15s, 1m30s or 300ms, was 'NaN'",
        "--config c --leader-elect-resource-lock=endpointsleases | --leader-elect-resource-lock must be leases (the only lock kube-scheduler 1.37 takes), was 'endpointsleases'",
        "--config c --bind-address=localhost  | --bind-address must be an IP address such as 0.0.0.0, 127.0.0.1 or ::, was 'localhost'",
        "--config c --bind-address=256.0.0.1  | --bind-address must be an IP address such as 0.0.0.0, 127.0.0.1 or ::, was '256.0.0.1'",
        "--config c --tls-cert-file=c.pem     | --tls-cert-file and --tls-private-key-file go together; only --tls-cert-file was given",
        "--config c --feature-gates=Foo=true  | --feature-gates Foo is not a gate this scheduler honours; accepted: InPlacePodVerticalScaling=true,",
        "--config c --feature-gates=StorageCapacityScoring=false | --feature-gates StorageCapacityScoring=false is not supported: this scheduler behaves as StorageCapacityScoring=true; accepted:",
        "--config c --feature-gates=StorageCapacityScoring | --feature-gates needs Name=true or Name=false, was 'StorageCapacityScoring'",
        "--config c --feature-gates=StorageCapacityScoring=maybe | --feature-gates StorageCapacityScoring must be true or false, was 'maybe'",
        "--config c --no-policy-crd=false     | --no-policy-crd takes no value",
        "--config c --policy-crd=x            | --policy-crd must be true or false, was 'x'",
        "--config c --master=https://x        | unknown flag '--master=https://x'; supported: --config, --kubeconfig, --write-config-to, -v, --v,",
        "--config c --profiling               | unknown flag '--profiling'; supported: --config",
        "--config c extra                     | unexpected argument 'extra'",
      })
  void a_bad_command_line_is_refused_naming_the_flag_and_value(String line, String message) {
    var args = line.isEmpty() ? List.<String>of() : List.of(line.split(" "));
    var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args));
    assertTrue(e.getMessage().startsWith("command line: "), e.getMessage());
    assertTrue(e.getMessage().contains(message), () -> e.getMessage() + " should say " + message);
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }
}
