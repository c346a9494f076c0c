package io.kubesched.drills;

/**
 * kube-apiserver stopped and started again on the same etcd ({@link
 * io.kubesched.testcluster.TestCluster#restartApiServer}): every connection drops, requests fail while it is
 * down, the watches must resume or relist.
 */
final class ApiServerRestart implements Fault {

  @Override
  public String name() {
    return "apiserver-restart";
  }

  @Override
  public void inject(Target target) throws Exception {
    target.cluster().restartApiServer();
  }

  @Override
  public void heal(Target target) {
    // It is back once restartApiServer returns.
  }
}
