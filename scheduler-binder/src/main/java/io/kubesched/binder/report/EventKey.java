package io.kubesched.binder.report;

import io.fabric8.kubernetes.api.model.ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * What makes two events "the same" for client-go's events recorder (its isomorphic key): type, action,
 * reason, the whole reference to the object the event is about and the whole reference to the related
 * object, if any. The note is not part of it, and neither is the time. The reporting controller and instance
 * are, in client-go; here they are fixed per {@link EventRecorder}.
 *
 * <p>The references include the objects' resourceVersion, as client-go's do: an event about a pod that has
 * changed since starts a new event rather than a series. Where the recorder does not know the object's
 * resourceVersion (a pod group object, whose status this scheduler changes between events), the note is part
 * of the key instead ({@link #withNote}), so that a new reason starts a new event rather than counting into
 * an event that shows the old one.
 *
 * @param note the note, where it is part of the key; null otherwise
 */
record EventKey(
    String type, String action, String reason, Ref regarding, @Nullable Ref related, @Nullable String note) {

  /** The fields of an {@link ObjectReference}, as a value (fabric8's reference is mutable). */
  record Ref(
      @Nullable String apiVersion,
      @Nullable String kind,
      @Nullable String namespace,
      @Nullable String name,
      @Nullable String uid,
      @Nullable String resourceVersion,
      @Nullable String fieldPath) {

    static Ref of(ObjectReference ref) {
      return new Ref(
          ref.getApiVersion(),
          ref.getKind(),
          ref.getNamespace(),
          ref.getName(),
          ref.getUid(),
          ref.getResourceVersion(),
          ref.getFieldPath());
    }
  }

  static EventKey of(
      String type, String action, String reason, ObjectReference regarding, @Nullable ObjectReference related) {
    return new EventKey(type, action, reason, Ref.of(regarding), related == null ? null : Ref.of(related), null);
  }

  /** @return this key with {@code note} part of it */
  EventKey withNote(String note) {
    return new EventKey(type, action, reason, regarding, related, note);
  }
}
