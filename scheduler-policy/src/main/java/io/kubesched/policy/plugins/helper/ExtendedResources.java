package io.kubesched.policy.plugins.helper;

import io.kubesched.api.DeviceClass;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.LabelSyntax;
import java.util.Optional;

/**
 * Extended resource names as kube-scheduler reads them, and the DeviceClass that backs one (kube's {@code
 * DeviceClassResolver}), shared by NodeResourcesFit and DynamicResources. Pure.
 */
public final class ExtendedResources {

  /** Kube's prefix of the extended resource name every DeviceClass backs implicitly. */
  public static final String IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/";

  private ExtendedResources() {}

  /**
   * Kubernetes' {@code IsExtendedResourceName}: a name with a domain outside {@code kubernetes.io}, not starting
   * with {@code requests.}, that is a qualified name once {@code requests.} is put in front.
   */
  public static boolean isExtendedResourceName(String name) {
    boolean isNative = !name.contains("/") || name.contains("kubernetes.io/");
    if (isNative || name.startsWith("requests.")) {
      return false;
    }
    return LabelSyntax.isQualifiedName("requests." + name);
  }

  /** kube's {@code IsDRAExtendedResourceName}: an extended resource name, or one a class backs implicitly. */
  public static boolean isDraExtendedResourceName(String name) {
    return isExtendedResourceName(name) || name.startsWith(IMPLICIT_PREFIX);
  }

  /**
   * kube's DeviceClass resolver for an extended resource: the class naming it as its {@code extendedResourceName}
   * (of several, the first by name), else the class {@code X} for {@code deviceclass.resource.kubernetes.io/X}.
   */
  public static Optional<DeviceClass> deviceClassFor(String resource, DynamicResources resources) {
    DeviceClass explicit = null;
    for (var c : resources.deviceClasses()) {
      if (resource.equals(c.extendedResourceName()) && (explicit == null || c.name().compareTo(explicit.name()) < 0)) {
        explicit = c;
      }
    }
    if (explicit != null) {
      return Optional.of(explicit);
    }
    if (resource.startsWith(IMPLICIT_PREFIX)) {
      return resources.deviceClass(resource.substring(IMPLICIT_PREFIX.length()));
    }
    return Optional.empty();
  }
}
