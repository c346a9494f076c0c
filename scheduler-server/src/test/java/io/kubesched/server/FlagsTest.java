package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FlagsTest {

  @Test
  void only_the_config_is_required_the_rest_has_defaults() {
    var flags = Flags.parse(List.of("--config", "c.yaml"));
    assertEquals(new Flags(Path.of("c.yaml"), Optional.empty(), ServingOptions.defaults(), true), flags);
  }

  @Test
  void every_flag_in_both_spellings() {
    var flags =
        Flags.parse(
            List.of(
                "--config=c.yaml",
                "--kubeconfig",
                "k",
                "--secure-port=0",
                "--bind-address",
                "127.0.0.1",
                "--tls-cert-file=c.crt",
                "--tls-private-key-file",
                "c.key",
                "--authentication-kubeconfig=a",
                "--authorization-kubeconfig",
                "z",
                "--authorization-always-allow-paths=/healthz,/debug/*",
                "--no-policy-crd"));
    var serving =
        new ServingOptions(
            0,
            java.net.InetAddress.getLoopbackAddress(),
            Optional.of(Path.of("c.crt")),
            Optional.of(Path.of("c.key")),
            Optional.of(Path.of("a")),
            Optional.of(Path.of("z")),
            List.of("/healthz", "/debug/*"));
    assertEquals(new Flags(Path.of("c.yaml"), Optional.of(Path.of("k")), serving, false), flags);
    assertTrue(Flags.parse(List.of("--policy-crd", "--config", "c")).policyCrd());
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

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                                   | --config FILE is required",
        "--secure-port 80                     | --config FILE is required",
        "--config                             | --config needs a value",
        "--config --secure-port 1             | --config needs a value",
        "--config=                            | --config needs a value, was ''",
        "--config c --secure-port x           | --secure-port must be a number from 0 to 65535, was 'x'",
        "--config c --secure-port 65536       | --secure-port must be a number from 0 to 65535, was '65536'",
        "--config c --secure-port=-1          | --secure-port must be a number from 0 to 65535, was '-1'",
        "--config c --config d                | --config is given more than once",
        "--config c --policy-crd --no-policy-crd | --policy-crd or --no-policy-crd is given more than once",
        "--config c --no-policy-crd=false     | --no-policy-crd takes no value",
        "--config c --leader-elect            | unknown flag '--leader-elect'; valid: --config, --kubeconfig",
        "--config c extra                     | unknown flag 'extra'",
        "--config c --port 80                 | unknown flag '--port'",
        "--config c --bind-address host       | --bind-address must be an IP address, was 'host'",
      })
  void a_bad_command_line_is_refused_naming_the_flag_and_value(String line, String message) {
    var args = line.isEmpty() ? List.<String>of() : List.of(line.split(" "));
    var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args));
    assertTrue(e.getMessage().startsWith("command line: "), e.getMessage());
    assertTrue(e.getMessage().contains(message), () -> e.getMessage() + " should say " + message);
  }
}
