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
    assertEquals(new Flags(Path.of("c.yaml"), Optional.empty(), 10259, true), flags);
  }

  @Test
  void every_flag_in_both_spellings() {
    var flags =
        Flags.parse(List.of("--config=c.yaml", "--kubeconfig", "k", "--port=0", "--no-policy-crd"));
    assertEquals(new Flags(Path.of("c.yaml"), Optional.of(Path.of("k")), 0, false), flags);
    assertTrue(Flags.parse(List.of("--policy-crd", "--config", "c")).policyCrd());
  }

  @Test
  void logging_format_and_verbosity_in_kube_spellings() {
    assertEquals(new Flags(Path.of("c"), Optional.empty(), 10259, true, "json", 2),
        Flags.parse(List.of("--config", "c", "--logging-format=json", "-v=2")));
    assertEquals(4, Flags.parse(List.of("--config", "c", "--v", "4")).verbosity());
    assertEquals(3, Flags.parse(List.of("--config", "c", "-v", "3")).verbosity());
    var negative = assertThrows(ConfigurationException.class, () -> Flags.parse(List.of("--config", "c", "-v=-1")));
    assertEquals("command line: -v must be a number, 0 or more, was '-1'", negative.getMessage());
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
        "--port 80                            | --config FILE is required",
        "--config                             | --config needs a value",
        "--config --port 1                    | --config needs a value",
        "--config=                            | --config needs a value, was ''",
        "--config c --port x                  | --port must be a number from 0 to 65535, was 'x'",
        "--config c --port 65536              | --port must be a number from 0 to 65535, was '65536'",
        "--config c --port=-1                 | --port must be a number from 0 to 65535, was '-1'",
        "--config c --config d                | --config is given more than once",
        "--config c --policy-crd --no-policy-crd | --policy-crd or --no-policy-crd is given more than once",
        "--config c --no-policy-crd=false     | --no-policy-crd takes no value",
        "--config c --leader-elect            | unknown flag '--leader-elect'; valid: --config, --kubeconfig",
        "--config c extra                     | unknown flag 'extra'",
      })
  void a_bad_command_line_is_refused_naming_the_flag_and_value(String line, String message) {
    var args = line.isEmpty() ? List.<String>of() : List.of(line.split(" "));
    var e = assertThrows(ConfigurationException.class, () -> Flags.parse(args));
    assertTrue(e.getMessage().startsWith("command line: "), e.getMessage());
    assertTrue(e.getMessage().contains(message), () -> e.getMessage() + " should say " + message);
  }
}
