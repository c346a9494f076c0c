/**
 * Test support, never published: one real kube-apiserver and etcd (and on request kube-controller-manager)
 * from {@code tools/test-cluster/cluster.sh} and an admin client for it, shared by the end-to-end tests, the
 * end-to-end benchmark and the fault drills; the data file those tools leave per run ({@code RunRecord}); and an
 * HTTPS client for kubesched-server's self-signed endpoints ({@code InsecureHttps}).
 */
module io.kubesched.testcluster {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires transitive java.net.http; // InsecureHttps' signature
  requires kubernetes.client;
  requires io.fabric8.kubernetes.client.jdkhttp;
  requires org.slf4j;
  requires tools.jackson.databind;

  exports io.kubesched.testcluster;
}
