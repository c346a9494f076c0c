package io.kubesched.binder;

import static io.kubesched.binder.BinderFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.NotBlank;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** {@link BindOptions} accepts exactly the positive timeouts and the non-blank node names. */
class BindOptionsProperties {

  /** Never connected: the options only hold it. */
  private static KubernetesClient client;

  @BeforeContainer
  static void createClient() {
    client = BinderFixtures.offlineClient();
  }

  @AfterContainer
  static void closeClient() {
    client.close();
  }

  @Property(tries = 200)
  void everyPositiveTimeoutIsAccepted(@ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long nanos) {
    var options = new BindOptions(client, pod(), "node-1", Duration.ofNanos(nanos), BindMode.SUBRESOURCE);
    assertEquals(nanos, options.timeout().toNanos());
  }

  @Property(tries = 200)
  void everyNonPositiveTimeoutIsRefused(@ForAll @LongRange(min = Long.MIN_VALUE, max = 0) long nanos) {
    assertThrows(
        IllegalArgumentException.class,
        () -> new BindOptions(client, pod(), "node-1", Duration.ofNanos(nanos), BindMode.SUBRESOURCE));
  }

  @Property(tries = 200)
  void everyBlankNodeNameIsRefused(
      @ForAll @Chars({' ', '\t', '\n', '\r', '\u2003'}) @StringLength(max = 8) String nodeName) {
    assertThrows(
        IllegalArgumentException.class,
        () -> new BindOptions(client, pod(), nodeName, Duration.ofSeconds(1), BindMode.SUBRESOURCE));
  }

  @Property(tries = 200)
  void everyNonBlankNodeNameIsKept(@ForAll @AlphaChars @NotBlank String nodeName) {
    var options = new BindOptions(client, pod(), nodeName, Duration.ofSeconds(1), BindMode.SUBRESOURCE);
    assertEquals(nodeName, options.nodeName());
  }
}
