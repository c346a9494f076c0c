package io.kubesched.samples.plugins;

import io.kubesched.server.KubeschedServer;

/**
 * The program: kubesched-server, with {@link AvoidDrainingNodes} registered under its name. It takes
 * kubesched-server's command line ({@code --config FILE ...}); the configuration enables the plugin by name (see
 * this sample's {@code config.yaml}).
 */
public final class PlatformScheduler {

  private PlatformScheduler() {}

  /** @return the server with this scheduler's plugins registered (its tests read the configuration with them) */
  public static KubeschedServer server() {
    return KubeschedServer.builder()
        .filter(AvoidDrainingNodes.NAME, DrainingArgs.class, AvoidDrainingNodes::new)
        .build();
  }

  /**
   * Runs the scheduler until SIGTERM.
   *
   * @param args kubesched-server's command line
   * @throws InterruptedException if interrupted while running
   */
  public static void main(String[] args) throws InterruptedException {
    server().main(args);
  }
}
