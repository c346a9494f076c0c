/** A runnable example scheduler: a least-allocated policy, on the embedded fake cluster or a real one. */
module io.kubesched.examples {
  requires io.kubesched.facade;
  requires java.logging;

  exports io.kubesched.examples;
}
