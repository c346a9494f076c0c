package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * The controller of a pod: its owner reference with {@code controller: true}.
 *
 * @param kind the controller's kind, for example {@code ReplicaSet}
 * @param name the controller's name
 * @param uid the controller's uid
 */
@API(status = STABLE, since = "0.1.0")
public record Owner(String kind, String name, String uid) {}
