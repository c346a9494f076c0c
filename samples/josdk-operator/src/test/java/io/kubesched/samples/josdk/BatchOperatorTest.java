package io.kubesched.samples.josdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.samples.josdk.BatchOperator.Arguments;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatchOperatorTest {

  @Test
  void without_arguments_the_client_configures_itself_and_leader_election_is_off() {
    assertEquals(new Arguments(Optional.empty(), Optional.empty(), BatchOperator.DEFAULT_LEASE_NAME),
        Arguments.parse());
  }

  @Test
  void every_argument_is_read() {
    assertEquals(new Arguments(Optional.of(Path.of("/k/config")), Optional.of("ops"), "batch"),
        Arguments.parse("--kubeconfig", "/k/config", "--leader-election-namespace", "ops", "--lease-name", "batch"));
  }

  @Test
  void an_unknown_or_incomplete_argument_is_refused_by_name() {
    assertEquals("unknown argument --kube-config",
        assertThrows(IllegalArgumentException.class, () -> Arguments.parse("--kube-config", "x")).getMessage());
    assertEquals("--kubeconfig needs a value",
        assertThrows(IllegalArgumentException.class, () -> Arguments.parse("--kubeconfig")).getMessage());
    assertEquals("--lease-name needs a value",
        assertThrows(IllegalArgumentException.class, () -> Arguments.parse("--lease-name", " ")).getMessage());
  }
}
