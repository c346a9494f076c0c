package io.kubesched.benchmark.e2e;

import io.kubesched.facade.Client;
import io.kubesched.facade.Options;
import io.kubesched.policy.plugins.DefaultPolicy;
import java.nio.file.Path;

/**
 * This library's side of the benchmark: a scheduler process with the built-in policy configured like
 * kube-scheduler's default profile, as an operator would run it, so that its CPU time and resident memory can
 * be read from {@code /proc} exactly as kube-scheduler's are.
 *
 * <pre>BenchmarkScheduler KUBECONFIG SCHEDULER_NAME QPS BURST</pre>
 *
 * Runs until it is terminated; the shutdown hook closes the controller.
 */
public final class BenchmarkScheduler {

  private BenchmarkScheduler() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 4) {
      System.err.println("usage: BenchmarkScheduler KUBECONFIG SCHEDULER_NAME QPS BURST");
      System.exit(2);
    }
    var options =
        Options.builder()
            .kubeconfig(Path.of(args[0]))
            .schedulerName(args[1])
            .rateLimit(Double.parseDouble(args[2]), Integer.parseInt(args[3]))
            .build();
    try (var client = Client.create(options);
        var controller = client.newPodController(DefaultPolicy.create())) {
      Runtime.getRuntime().addShutdownHook(new Thread(controller::close, "benchmark-scheduler-shutdown"));
      controller.run();
    }
  }
}
