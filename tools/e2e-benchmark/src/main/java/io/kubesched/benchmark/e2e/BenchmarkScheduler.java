package io.kubesched.benchmark.e2e;

import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.facade.Client;
import io.kubesched.facade.Options;
import io.kubesched.policy.DefaultPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/**
 * This library's side of the benchmark: a scheduler process with the built-in policy configured like
 * kube-scheduler's default profile, as an operator would run it, so that its CPU time and resident memory can
 * be read from {@code /proc} exactly as kube-scheduler's are.
 *
 * <pre>BenchmarkScheduler KUBECONFIG SCHEDULER_NAME QPS BURST [workload-api]</pre>
 *
 * With {@value #WORKLOAD_API} (the gang workloads) it watches only the Workload API's pod groups ({@code
 * Options.podGroupSources(Set.of(WORKLOAD_API))}), else the default sources. Runs until it is terminated; the
 * shutdown hook closes the controller.
 */
public final class BenchmarkScheduler {

  /**
   * The system property naming the file where the process writes, once closed, each bound pod's way through
   * it ({@link PathTimes}); unset, it records nothing of the kind.
   */
  static final String PATH_TIMES = "kubesched.benchmark.pathTimes";

  /**
   * The system property setting the loop's parallelism ({@code Options.Builder.parallelism}), to compare it with
   * the default (kube's 16, capped at the processors); unset, the default.
   */
  static final String PARALLELISM = "kubesched.benchmark.parallelism";

  /**
   * The system property naming the loopback port where the process serves its scheduling attempts as
   * kube-scheduler's {@code scheduler_schedule_attempts_total} ({@link ScheduleAttempts.Counter}); unset, it
   * serves nothing.
   */
  static final String METRICS_PORT = "kubesched.benchmark.metricsPort";

  /** The optional last argument: pod groups from {@code scheduling.k8s.io/v1beta1} only. */
  static final String WORKLOAD_API = "workload-api";

  private BenchmarkScheduler() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 4 && !(args.length == 5 && args[4].equals(WORKLOAD_API))) {
      System.err.println("usage: BenchmarkScheduler KUBECONFIG SCHEDULER_NAME QPS BURST [" + WORKLOAD_API + "]");
      System.exit(2);
    }
    var builder =
        Options.builder()
            .kubeconfig(Path.of(args[0]))
            .schedulerName(args[1])
            .rateLimit(Double.parseDouble(args[2]), Integer.parseInt(args[3]));
    if (args.length == 5) {
      builder.podGroupSources(Set.of(PodGroupRef.Source.WORKLOAD_API));
    }
    var parallelism = Integer.getInteger(PARALLELISM);
    if (parallelism != null) {
      builder.parallelism(parallelism);
    }
    var pathTimesFile = System.getProperty(PATH_TIMES);
    var pathTimes = pathTimesFile == null ? null : new PathTimes();
    var metricsPort = Integer.getInteger(METRICS_PORT);
    var counter =
        metricsPort == null
            ? null
            : new ScheduleAttempts.Counter(pathTimes != null ? pathTimes : SchedulerMetrics.NONE);
    if (counter != null) {
      builder.metrics(counter);
    } else if (pathTimes != null) {
      builder.metrics(pathTimes);
    }
    var server = counter == null ? null : counter.serve(metricsPort, args[1]);
    var options = builder.build();
    try (var client = Client.create(options);
        var controller = client.newPodController(DefaultPolicy.create())) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    controller.close();
                    if (server != null) {
                      server.stop(0);
                    }
                    if (pathTimes != null) {
                      try {
                        pathTimes.write(Path.of(pathTimesFile));
                      } catch (IOException e) {
                        System.err.println("could not write " + pathTimesFile + ": " + e);
                      }
                    }
                  },
                  "benchmark-scheduler-shutdown"));
      controller.run();
    }
  }
}
