/**
 * Test support, never published: one real kube-apiserver and etcd (and on request kube-controller-manager)
 * from {@code tools/test-cluster/cluster.sh} and an admin client for it, shared by the end-to-end tests, the
 * end-to-end benchmark and the fault drills.
 */
module io.kubesched.testcluster {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires kubernetes.client;
  requires io.fabric8.kubernetes.client.jdkhttp;
  requires org.slf4j;

  exports io.kubesched.testcluster;
}
