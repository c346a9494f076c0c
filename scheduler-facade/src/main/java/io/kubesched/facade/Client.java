package io.kubesched.facade;

import static org.apiguardian.api.API.Status.STABLE;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.SchedulingListener;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A connection to one cluster, and the factory of {@link Controller}s that schedule on it.
 *
 * <p>Thread-safe. {@link #close()} closes every controller made from this client, then the connection
 * (and the embedded fake cluster, if any). Idempotent.
 */
@API(status = STABLE, since = "0.1.0")
public interface Client extends AutoCloseable {

  /**
   * Connects as {@code options} say. Nothing is listed or watched until a controller starts. Logs one INFO
   * line first: this library's {@link io.kubesched.api.BuildInfo version and revision}, fabric8's version and
   * Java's.
   *
   * @throws ConfigurationException if the class path mixes fabric8 versions or holds another fabric8 line than
   *     this build's (the message names what it found and the BOM to import), or the connection cannot be set
   *     up: no kubeconfig where looked, not running in a pod, or a fake cluster without {@code
   *     kubernetes-server-mock} on the class path
   */
  static Client create(Options options) {
    return new DefaultClient(options);
  }

  /** @return the options this client was created with */
  Options options();

  /**
   * Lists the nodes, each with the pods bound to it, straight from the API server.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if the API server cannot be reached
   */
  List<NodeInfo> listNodeInfos();

  /**
   * @param finder the placement policy
   * @return a controller, not yet started, that places the pods for {@link Options#schedulerName()}
   */
  default Controller newPodController(FinderFunc finder) {
    return newPodController(finder, SchedulingListener.NONE);
  }

  /**
   * @param finder the placement policy
   * @param listener hears what happens to each pod
   * @return a controller, not yet started, that places the pods for {@link Options#schedulerName()}
   * @throws IllegalStateException if this client is closed
   */
  Controller newPodController(FinderFunc finder, SchedulingListener listener);

  /**
   * One controller for several schedulers (profiles, as in kube-scheduler): each scheduler name has its own
   * policy; the pods of all of them share one queue, one view of the nodes (so each decision counts the
   * others' choices), one binding pool and one write limit. {@link Options#schedulerName()} is not used.
   *
   * @param profiles the policy of each {@code spec.schedulerName} to serve, at least one
   * @param listener hears what happens to each pod
   * @return a controller, not yet started
   * @throws ConfigurationException if {@code profiles} is empty or a name is blank or {@code
   *     default-scheduler} (without {@link Options#replacesKubeScheduler()})
   * @throws IllegalStateException if this client is closed
   */
  Controller newPodController(Map<String, FinderFunc> profiles, SchedulingListener listener);

  /**
   * The fabric8 client this library talks through, for creating and reading objects yourself (for example
   * the nodes and pods of the fake cluster). Owned by this client, do not close it; except the application's
   * own client given as {@link Options.Connection.Shared}, which this is then, and which the application closes
   * (after this client).
   *
   * <p>Its JDK HTTP client runs its own tasks inline rather than on a thread pool (bindings wait less): code
   * chained to a future of this client's asynchronous calls may run on the thread that does all its I/O, so
   * such code must not block; its blocking calls ({@code get()}, {@code create()}, …), informers and watches
   * are not affected.
   */
  KubernetesClient kubernetesClient();

  /** Closes every controller made from this client, then the connection. Idempotent. */
  @Override
  void close();
}
