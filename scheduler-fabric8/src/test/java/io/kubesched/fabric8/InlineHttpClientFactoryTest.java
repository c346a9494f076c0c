package io.kubesched.fabric8;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The scheduler's HTTP client runs the JDK client's tasks inline (scheduler-k8s's test: it still answers). */
class InlineHttpClientFactoryTest {

  @Test
  @DisplayName("the JDK client it builds runs a submitted task on the submitting thread")
  void tasksRunWhereSubmitted() {
    var jdkClient = new InlineHttpClientFactory().createNewHttpClientBuilder().build();
    var ranOn = new AtomicReference<Thread>();

    jdkClient.executor().orElseThrow().execute(() -> ranOn.set(Thread.currentThread()));

    assertSame(Thread.currentThread(), ranOn.get());
  }
}
