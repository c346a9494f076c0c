package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;


/**
 * A storage object a pod's volumes need does not exist: kube-scheduler's volume plugins reject the pod with the
 * NotFound error of their informer's lister, as code {@code UnschedulableAndUnresolvable}. The message is that
 * error's text, e.g. {@code persistentvolumeclaim "data" not found}.
 *
 * @param resource the lister's resource as Kubernetes names it in the error: {@value #CLAIM}, {@value
 *     #VOLUME} or {@value #STORAGE_CLASS}
 * @param name the missing object's name
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record StorageObjectNotFound(String resource, String name) implements Reason {

  /** The resource of a PersistentVolumeClaim in a NotFound error, {@value}. */
  public static final String CLAIM = "persistentvolumeclaim";

  /** The resource of a PersistentVolume in a NotFound error, {@value}. */
  public static final String VOLUME = "persistentvolume";

  /** The resource of a StorageClass in a NotFound error, {@value}. */
  public static final String STORAGE_CLASS = "storageclass.storage.k8s.io";

  /** @return the reason that the claim {@code name} (in the pod's namespace) does not exist */
  public static StorageObjectNotFound claim(String name) {
    return new StorageObjectNotFound(CLAIM, name);
  }

  /** @return the reason that the volume {@code name} does not exist */
  public static StorageObjectNotFound volume(String name) {
    return new StorageObjectNotFound(VOLUME, name);
  }

  /** @return the reason that the storage class {@code name} does not exist */
  public static StorageObjectNotFound storageClass(String name) {
    return new StorageObjectNotFound(STORAGE_CLASS, name);
  }

  /** @return {@code <resource> "<name>" not found}, the name quoted as Go's {@code %q} quotes it */
  @Override
  public String message() {
    return resource + " " + quoted(name) + " not found";
  }

  /** Go's {@code %q} for the characters an object name may hold, and escapes for the rest of ASCII. */
  private static String quoted(String text) {
    var out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
