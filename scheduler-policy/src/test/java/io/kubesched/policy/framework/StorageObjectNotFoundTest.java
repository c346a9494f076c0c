package io.kubesched.policy.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The NotFound messages of kube's informer listers, as {@link StorageObjectNotFound} words them. */
class StorageObjectNotFoundTest {

  @Test
  void each_resource_is_named_as_its_lister_names_it() {
    assertEquals("persistentvolumeclaim \"data\" not found", StorageObjectNotFound.claim("data").message());
    assertEquals("persistentvolume \"pv-1\" not found", StorageObjectNotFound.volume("pv-1").message());
    assertEquals(
        "storageclass.storage.k8s.io \"fast\" not found", StorageObjectNotFound.storageClass("fast").message());
  }

  @Test
  void the_name_is_quoted_as_go_quotes_it() {
    assertEquals("persistentvolumeclaim \"\" not found", StorageObjectNotFound.claim("").message());
    assertEquals(
        "persistentvolumeclaim \"a\\\"b\\\\c\\n\\x01\" not found",
        StorageObjectNotFound.claim("a\"b\\c\n\u0001").message());
  }
}
