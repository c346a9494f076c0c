/**
 * A runnable example scheduler: kube-scheduler's default policy (or a Policy file), on the embedded fake
 * cluster or a real one.
 */
module io.kubesched.examples {
  requires io.kubesched.facade;
  requires io.kubesched.policy;
  requires java.logging;

  exports io.kubesched.examples;
}
