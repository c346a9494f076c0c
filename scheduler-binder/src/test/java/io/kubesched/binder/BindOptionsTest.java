package io.kubesched.binder;

import static io.kubesched.binder.BinderFixtures.NAME;
import static io.kubesched.binder.BinderFixtures.NODE;
import static io.kubesched.binder.BinderFixtures.NS;
import static io.kubesched.binder.BinderFixtures.UID;
import static io.kubesched.binder.BinderFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Validation in {@link BindOptions}' constructor. No request is made. */
class BindOptionsTest {

  /** Never connected: the options only hold it. */
  private static KubernetesClient client;

  @BeforeAll
  static void createClient() {
    client = BinderFixtures.offlineClient();
  }

  @AfterAll
  static void closeClient() {
    client.close();
  }

  @ParameterizedTest(name = "missing {0}")
  @ValueSource(strings = {"namespace", "name", "uid"})
  @DisplayName("a pod without namespace, name or uid is refused, naming the field")
  void podWithoutIdentityIsRefused(String field) {
    var builder = new PodBuilder(pod()).editMetadata();
    switch (field) {
      case "namespace" -> builder.withNamespace(null);
      case "name" -> builder.withName(null);
      default -> builder.withUid(null);
    }
    var incomplete = builder.endMetadata().build();

    var e =
        assertThrows(
            IllegalArgumentException.class, () -> options(incomplete, NODE, Duration.ofSeconds(1)));
    assertTrue(e.getMessage().contains(field), e.getMessage());
  }

  @ParameterizedTest(name = "blank {0}")
  @ValueSource(strings = {"namespace", "name", "uid"})
  @DisplayName("a pod with a blank namespace, name or uid is refused, naming the field")
  void podWithBlankIdentityIsRefused(String field) {
    var builder = new PodBuilder(pod()).editMetadata();
    switch (field) {
      case "namespace" -> builder.withNamespace(" ");
      case "name" -> builder.withName("");
      default -> builder.withUid("\t");
    }
    var incomplete = builder.endMetadata().build();

    var e =
        assertThrows(
            IllegalArgumentException.class, () -> options(incomplete, NODE, Duration.ofSeconds(1)));
    assertTrue(e.getMessage().contains(field), e.getMessage());
  }

  @Test
  @DisplayName("a pod without metadata is refused")
  void podWithoutMetadataIsRefused() {
    var bare = new PodBuilder().withNewSpec().endSpec().build();

    var e = assertThrows(IllegalArgumentException.class, () -> options(bare, NODE, Duration.ofSeconds(1)));
    assertTrue(e.getMessage().contains("metadata"), e.getMessage());
  }

  @ParameterizedTest(name = "node name \"{0}\"")
  @ValueSource(strings = {"", " ", "\t\n"})
  @DisplayName("a blank node name is refused, naming nodeName and the pod")
  void blankNodeNameIsRefused(String nodeName) {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> options(pod(), nodeName, Duration.ofSeconds(1)));
    assertTrue(e.getMessage().contains("nodeName"), e.getMessage());
    assertTrue(e.getMessage().contains(NS + "/" + NAME), e.getMessage());
  }

  @ParameterizedTest(name = "{0} ms")
  @ValueSource(longs = {0, -1, -30_000})
  @DisplayName("a zero or negative timeout is refused, naming timeout and its value")
  void nonPositiveTimeoutIsRefused(long millis) {
    var timeout = Duration.ofMillis(millis);

    var e = assertThrows(IllegalArgumentException.class, () -> options(pod(), NODE, timeout));
    assertTrue(e.getMessage().contains("timeout"), e.getMessage());
    assertTrue(e.getMessage().contains(timeout.toString()), e.getMessage());
  }

  @Test
  @DisplayName("valid options are kept as given, and podKey is namespace/name")
  void validOptionsAreKept() {
    var options = assertDoesNotThrow(() -> options(pod(), NODE, Duration.ofNanos(1)));

    assertEquals(NODE, options.nodeName());
    assertEquals(UID, options.pod().getMetadata().getUid());
    assertEquals(Duration.ofNanos(1), options.timeout());
    assertEquals(BindMode.SET_NODE_NAME, options.mode());
    assertEquals(NS + "/" + NAME, options.podKey());
  }

  private static BindOptions options(Pod pod, String nodeName, Duration timeout) {
    return new BindOptions(client, pod, nodeName, timeout, BindMode.SET_NODE_NAME);
  }
}
