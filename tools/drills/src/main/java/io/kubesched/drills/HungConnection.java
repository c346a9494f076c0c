package io.kubesched.drills;

import java.time.Duration;

/**
 * A half-open network: the proxy between the scheduler and kube-apiserver stops forwarding in both directions
 * and accepts new connections without answering them, for {@code stall}; then it drops every connection and
 * forwards again. The scheduler's requests and watches hang with no error until their own timeouts fire.
 */
final class HungConnection implements Fault {

  private final Duration stall;

  /** @param stall how long the proxy holds every connection silent (the spec's: 30 s) */
  HungConnection(Duration stall) {
    this.stall = stall;
  }

  @Override
  public String name() {
    return "hung-connection";
  }

  @Override
  public void inject(Target target) throws InterruptedException {
    target.proxy().stall();
    Thread.sleep(stall.toMillis());
  }

  @Override
  public void heal(Target target) {
    target.proxy().dropAllAndResume();
  }
}
