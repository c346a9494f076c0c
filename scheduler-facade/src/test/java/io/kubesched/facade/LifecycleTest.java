package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.fakeOptions;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class LifecycleTest {

  @Test
  void a_controller_starts_once_and_closes_any_number_of_times() {
    try (var client = Client.create(fakeOptions())) {
      var controller = client.newPodController(firstFit());
      assertFalse(controller.isRunning());
      assertThrows(IllegalStateException.class, controller::nodes);

      controller.start();
      assertTrue(controller.isRunning());
      assertThrows(IllegalStateException.class, controller::start);

      controller.close();
      controller.close();
      assertFalse(controller.isRunning());
      assertThrows(IllegalStateException.class, controller::start);
    }
  }

  @Test
  void run_blocks_until_the_controller_is_closed() throws Exception {
    try (var client = Client.create(fakeOptions())) {
      var controller = client.newPodController(firstFit());
      var running =
          CompletableFuture.runAsync(
              () -> {
                try {
                  controller.run();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      FakeClusterFixture.eventually(
          Duration.ofSeconds(10), "the controller runs", controller::isRunning);
      assertThrows(TimeoutException.class, () -> running.get(300, TimeUnit.MILLISECONDS));

      controller.close();
      running.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void closing_the_client_closes_its_controllers() {
    var client = Client.create(fakeOptions());
    var controller = client.newPodController(firstFit());
    controller.start();

    client.close();
    client.close();

    assertFalse(controller.isRunning());
    assertThrows(IllegalStateException.class, () -> client.newPodController(firstFit()));
  }
}
