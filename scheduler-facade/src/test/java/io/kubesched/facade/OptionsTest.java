package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OptionsTest {

  @Test
  void defaults_match_kube_schedulers_backoff_and_use_the_kubeconfig() {
    var options = Options.builder().build();
    assertEquals(Options.Connection.KUBECONFIG, options.connection());
    assertEquals(Optional.empty(), options.kubeconfig());
    assertEquals("kubesched", options.schedulerName());
    assertEquals(Duration.ofSeconds(1), options.initialBackoff());
    assertEquals(Duration.ofSeconds(10), options.maxBackoff());
  }

  @Test
  void the_last_connection_chosen_wins() {
    var path = Path.of("/tmp/kubeconfig");
    assertEquals(Options.Connection.FAKE, Options.builder().kubeconfig(path).fake().build().connection());
    var options = Options.builder().fake().kubeconfig(path).build();
    assertEquals(Options.Connection.KUBECONFIG, options.connection());
    assertEquals(Optional.of(path), options.kubeconfig());
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("a blank scheduler name", (UnaryOperator<Options.Builder>) b -> b.schedulerName(" "), "schedulerName"),
        Arguments.of(
            "kube-scheduler's own name",
            (UnaryOperator<Options.Builder>) b -> b.schedulerName("default-scheduler"),
            "default-scheduler"),
        Arguments.of(
            "a zero bind timeout",
            (UnaryOperator<Options.Builder>) b -> b.bindTimeout(Duration.ZERO),
            "bindTimeout must be positive, was PT0S"),
        Arguments.of(
            "a negative backoff",
            (UnaryOperator<Options.Builder>) b -> b.backoff(Duration.ofSeconds(-1), Duration.ofSeconds(1)),
            "initialBackoff must be positive"),
        Arguments.of(
            "a maximum backoff below the initial one",
            (UnaryOperator<Options.Builder>) b -> b.backoff(Duration.ofSeconds(5), Duration.ofSeconds(1)),
            "maxBackoff PT1S must not be shorter than initialBackoff PT5S"),
        Arguments.of(
            "a zero sync timeout",
            (UnaryOperator<Options.Builder>) b -> b.syncTimeout(Duration.ZERO),
            "syncTimeout"));
  }

  @ParameterizedTest(name = "{0} is refused")
  @MethodSource("invalid")
  void invalid_options_are_refused_naming_the_option(
      String what, UnaryOperator<Options.Builder> change, String expectedMessagePart) {
    var error = assertThrows(ConfigurationException.class, () -> change.apply(Options.builder()).build());
    assertTrue(
        error.getMessage().contains(expectedMessagePart),
        "message '" + error.getMessage() + "' should contain '" + expectedMessagePart + "'");
  }

  @Test
  void a_missing_kubeconfig_is_a_configuration_error_naming_the_path(@TempDir Path dir) {
    var missing = dir.resolve("nope");
    var error =
        assertThrows(
            ConfigurationException.class,
            () -> Client.create(Options.builder().kubeconfig(missing).build()));
    assertTrue(error.getMessage().contains(missing.toString()), error.getMessage());
  }
}
