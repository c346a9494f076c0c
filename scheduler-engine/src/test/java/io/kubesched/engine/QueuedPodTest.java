package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class QueuedPodTest {

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(Named.of("a blank uid", new String[] {" ", "ns", "p", "s"}), "uid must not be blank: ' '"),
        Arguments.of(Named.of("no namespace", new String[] {"u", null, "p", "s"}), "namespace must not be null (pod p)"),
        Arguments.of(Named.of("an empty name", new String[] {"u", "ns", "", "s"}), "name must not be blank: ''"),
        Arguments.of(Named.of("no profile", new String[] {"u", "ns", "p", null}), "profile must not be null (pod ns/p)"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void is_refused_naming_what_is_wrong(String[] fields, String message) {
    var error =
        assertThrows(
            IllegalArgumentException.class, () -> new QueuedPod(fields[0], fields[1], fields[2], 0, fields[3]));
    assertEquals(message, error.getMessage());
  }
}
