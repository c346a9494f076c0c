package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A KubeSchedulerConfiguration's {@code clientConnection} rate limit, defaulted as kube-scheduler does.
 *
 * @param qps the sustained rate of requests to the API server, per second; 50 when the file leaves it out or 0
 * @param burst how many requests may go at once above {@code qps}; 100 when the file leaves it out or 0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClientConnection(float qps, int burst) {

  /** kube-scheduler's defaults: 50 per second, bursts of 100. */
  public static final ClientConnection DEFAULT = new ClientConnection(50, 100);
}
