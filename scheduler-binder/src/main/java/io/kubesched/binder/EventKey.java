package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * What makes two events "the same" for client-go's events recorder (its isomorphic key): type, action,
 * reason and the whole reference to the object. The note is not part of it, and neither is the time. The
 * reporting controller and instance are, in client-go; here they are fixed per {@link EventRecorder}.
 *
 * <p>The reference includes the object's resourceVersion, as client-go's does: an event about a pod that
 * has changed since starts a new event rather than a series.
 */
record EventKey(
    String type,
    String action,
    String reason,
    @Nullable String apiVersion,
    @Nullable String kind,
    @Nullable String namespace,
    @Nullable String name,
    @Nullable String uid,
    @Nullable String resourceVersion,
    @Nullable String fieldPath) {

  static EventKey of(String type, String action, String reason, ObjectReference regarding) {
    return new EventKey(
        type,
        action,
        reason,
        regarding.getApiVersion(),
        regarding.getKind(),
        regarding.getNamespace(),
        regarding.getName(),
        regarding.getUid(),
        regarding.getResourceVersion(),
        regarding.getFieldPath());
  }
}
