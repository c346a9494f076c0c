package io.kubesched.api;

/**
 * The controller of a pod: its owner reference with {@code controller: true}.
 *
 * @param kind the controller's kind, for example {@code ReplicaSet}
 * @param name the controller's name
 * @param uid the controller's uid
 */
public record Owner(String kind, String name, String uid) {}
