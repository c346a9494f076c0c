package io.kubesched.drills;

import io.kubesched.testcluster.TestCluster;

/**
 * What a {@link Fault} acts on.
 *
 * @param cluster the real control plane (kube-apiserver and etcd)
 * @param proxy the TCP proxy every connection of the scheduler under test goes through
 */
record Target(TestCluster cluster, TcpProxy proxy) {}
