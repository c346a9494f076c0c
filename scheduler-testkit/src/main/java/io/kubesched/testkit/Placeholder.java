package io.kubesched.testkit;

final class Placeholder {
  private Placeholder() {}
}
