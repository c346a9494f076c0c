package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The binding {@link Binder} writes as text reads back as the text fabric8 writes of the {@code Binding} its
 * builders make of the same pod and node, whatever characters the names hold (the API server's validation is
 * not the binder's to rely on for well-formed JSON).
 */
class BindingJsonProperties {

  /** A client for the options only: nothing is sent. */
  private static final KubernetesClient CLIENT =
      new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build())
          .build();

  @AfterContainer
  static void closeClient() {
    CLIENT.close();
  }

  @Property(tries = 300)
  void the_text_reads_back_as_fabric8s_binding(
      @ForAll("names") String name,
      @ForAll("names") String namespace,
      @ForAll("names") String uid,
      @ForAll("names") String node) {
    var pod =
        new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withUid(uid).endMetadata().build();
    var options = new BindOptions(CLIENT, pod, node, Duration.ofSeconds(1), BindMode.SUBRESOURCE);
    var expected =
        new BindingBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .withUid(uid)
            .endMetadata()
            .withNewTarget()
            .withApiVersion("v1")
            .withKind("Node")
            .withName(node)
            .endTarget()
            .build();

    var serialization = CLIENT.getKubernetesSerialization();

    var read = serialization.unmarshal(Binder.bindingJson(options), Binding.class);

    // fabric8's text read back, not the object itself: a lone surrogate does not survive either text's UTF-8
    assertEquals(serialization.unmarshal(serialization.asJson(expected), Binding.class), read);
    boolean escaped =
        (name + namespace + uid + node).chars().anyMatch(c -> c == '"' || c == '\\' || c < 0x20 || c > 0x7e);
    Statistics.label("a value needs escaping").collect(escaped);
    Statistics.label("a value needs escaping").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Provide
  Arbitrary<String> names() {
    var plain = Arbitraries.strings().withCharRange('a', 'z').withChars('-', '.').ofMinLength(1).ofMaxLength(12);
    var any = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(8);
    var awkward = Arbitraries.strings().withChars('"', '\\', '\n', '\t', '\u0001', 'é', '\u2028', 'a').ofMinLength(1)
        .ofMaxLength(6);
    return Arbitraries.oneOf(plain, any, awkward).filter(s -> !s.isBlank());
  }
}
