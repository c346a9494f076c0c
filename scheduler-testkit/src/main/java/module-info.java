/**
 * Test support for placement policies: jqwik arbitraries of pods, nodes and clusters with the edge cases
 * that matter, and a contract every {@link io.kubesched.api.FinderFunc} should meet.
 */
module io.kubesched.testkit {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  requires transitive io.kubesched.api;
  requires transitive net.jqwik.api;

  exports io.kubesched.testkit;
}
