package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Provide;
import net.jqwik.api.domains.DomainContextBase;
import org.apiguardian.api.API;

/**
 * A jqwik domain that resolves {@link PodInfo}, {@link NodeInfo}, {@link Cluster}, {@link Scenario}, {@link
 * ClusterSnapshot} and {@link SnapshotScenario} parameters by type, with the arbitraries of {@link
 * KubeArbitraries} (pods without inter-pod constraints, as {@link KubeArbitraries#pods()}; snapshots and
 * snapshot scenarios with them):
 *
 * <pre>{@code
 * @Property
 * @Domain(KubeDomain.class)
 * @Domain(DomainContext.Global.class) // keep jqwik's own types (long, String, ...) as well
 * void myPolicyNeverPicksACordonedNode(@ForAll Scenario scenario) { ... }
 * }</pre>
 *
 * <p>jqwik creates an instance itself (public no-argument constructor); it holds no state.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class KubeDomain extends DomainContextBase {

  /** Created by jqwik. */
  public KubeDomain() {}

  /** @return {@link KubeArbitraries#pods()} */
  @Provide
  public Arbitrary<PodInfo> pods() {
    return KubeArbitraries.pods();
  }

  /** @return {@link KubeArbitraries#nodes()} */
  @Provide
  public Arbitrary<NodeInfo> nodes() {
    return KubeArbitraries.nodes();
  }

  /** @return {@link KubeArbitraries#clusters()} */
  @Provide
  public Arbitrary<Cluster> clusters() {
    return KubeArbitraries.clusters();
  }

  /** @return {@link KubeArbitraries#scenarios()} */
  @Provide
  public Arbitrary<Scenario> scenarios() {
    return KubeArbitraries.scenarios();
  }

  /** @return {@link KubeArbitraries#snapshots()} */
  @Provide
  public Arbitrary<ClusterSnapshot> snapshots() {
    return KubeArbitraries.snapshots();
  }

  /** @return {@link KubeArbitraries#snapshotScenarios()} */
  @Provide
  public Arbitrary<SnapshotScenario> snapshotScenarios() {
    return KubeArbitraries.snapshotScenarios();
  }
}
