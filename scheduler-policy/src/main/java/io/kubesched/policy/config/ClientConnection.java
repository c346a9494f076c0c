package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A KubeSchedulerConfiguration's {@code clientConnection}, defaulted as kube-scheduler does (its {@code kubeconfig}
 * is {@link SchedulerConfiguration#kubeconfig()}).
 *
 * @param qps the sustained rate of requests to the API server, per second; 50 when the file leaves it out or 0
 * @param burst how many requests may go at once above {@code qps}; 100 when the file leaves it out or 0
 * @param contentType the content type kube-scheduler sends: {@value #PROTOBUF} (kube's default) or {@value #JSON};
 *     this library always speaks JSON, which every API server serves
 * @param acceptContentTypes the content types kube-scheduler accepts, comma-separated: empty (kube's default),
 *     {@value #PROTOBUF}, {@value #JSON} or both; this library always accepts JSON
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClientConnection(float qps, int burst, String contentType, String acceptContentTypes) {

  /** Kubernetes' protobuf encoding: kube's default {@code contentType}. */
  public static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

  /** JSON: what this library sends and accepts. */
  public static final String JSON = "application/json";

  /** kube-scheduler's defaults: 50 per second, bursts of 100, protobuf asked for. */
  public static final ClientConnection DEFAULT = new ClientConnection(50, 100, PROTOBUF, "");

  /** Checks that no component is null. */
  public ClientConnection {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(acceptContentTypes, "acceptContentTypes");
  }

  /** A rate limit with kube's default content types. */
  public ClientConnection(float qps, int burst) {
    this(qps, burst, PROTOBUF, "");
  }

  /** @return whether {@code contentType} or {@code acceptContentTypes} asks for protobuf, which is not spoken here */
  public boolean asksForProtobuf() {
    return contentType.equals(PROTOBUF) || acceptContentTypes.contains(PROTOBUF);
  }
}
