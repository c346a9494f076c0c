package io.kubesched.spring;

import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the {@code kubesched} health indicator says, in no Spring Boot type: up while the controller runs, with the
 * scheduler's name and whether it leads; down otherwise, with the reason. Spring Boot 4's indicator ({@code
 * org.springframework.boot.health.contributor}) and Spring Boot 3.5's ({@code org.springframework.boot.actuate.health})
 * both report this, so that the two lines say the same.
 *
 * @param up whether the controller runs
 * @param details the health's details, in a stable order
 */
record KubeschedHealth(boolean up, Map<String, Object> details) {

  static final String NOT_RUNNING = "the controller is not started or is closed";

  KubeschedHealth {
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
  }

  /** The controller's health now. */
  static KubeschedHealth of(Controller controller, Client client) {
    var details = new LinkedHashMap<String, Object>();
    details.put("schedulerName", client.options().schedulerName());
    boolean running = controller.isRunning();
    if (running) {
      details.put("leader", controller.isLeader());
    } else {
      details.put("reason", NOT_RUNNING);
    }
    return new KubeschedHealth(running, details);
  }
}
