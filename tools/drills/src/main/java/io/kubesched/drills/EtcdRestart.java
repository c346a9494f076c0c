package io.kubesched.drills;

/**
 * etcd stopped and started again on the same data ({@link io.kubesched.testcluster.TestCluster#restartEtcd}):
 * kube-apiserver stays up, its writes fail or wait meanwhile, and its own etcd watches resume; the scheduler's
 * connections to it stay open.
 */
final class EtcdRestart implements Fault {

  @Override
  public String name() {
    return "etcd-restart";
  }

  @Override
  public void inject(Target target) throws Exception {
    target.cluster().restartEtcd();
  }

  @Override
  public void heal(Target target) {
    // Over once etcd answers ready again.
  }
}
