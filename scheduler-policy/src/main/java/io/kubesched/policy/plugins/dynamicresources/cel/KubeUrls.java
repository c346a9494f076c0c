package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * kube's URLs library ({@code k8s.io/apiserver/pkg/cel/library/urls.go}): {@code url}, {@code isURL}, {@code
 * getScheme}, {@code getHost}, {@code getHostname}, {@code getPort}, {@code getEscapedPath} and {@code getQuery}, with
 * Go's {@code net/url} semantics ({@link GoUrl}) and kube's messages. A URL value is a {@link GoUrl}; two are equal
 * when Go prints them alike, as kube compares them. Stateless.
 */
final class KubeUrls {

  /** kube's {@code apiservercel.URLType}. */
  static final CelType URL = OpaqueType.create("kubernetes.URL");

  private static final CelType STRING = SimpleType.STRING;

  private KubeUrls() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        KubeLibraries.global("url", "string_to_url", URL, STRING),
        KubeLibraries.global("isURL", "is_url_string", SimpleType.BOOL, STRING),
        KubeLibraries.member("getScheme", "url_get_scheme", STRING, URL),
        KubeLibraries.member("getHost", "url_get_host", STRING, URL),
        KubeLibraries.member("getHostname", "url_get_hostname", STRING, URL),
        KubeLibraries.member("getPort", "url_get_port", STRING, URL),
        KubeLibraries.member("getEscapedPath", "url_get_escaped_path", STRING, URL),
        KubeLibraries.member("getQuery", "url_get_query", MapType.create(STRING, ListType.create(STRING)), URL));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_url", String.class, KubeUrls::url),
        CelFunctionBinding.from("is_url_string", String.class, KubeUrls::isUrl),
        CelFunctionBinding.from("url_get_scheme", GoUrl.class, GoUrl::scheme),
        CelFunctionBinding.from("url_get_host", GoUrl.class, GoUrl::host),
        CelFunctionBinding.from("url_get_hostname", GoUrl.class, GoUrl::hostname),
        CelFunctionBinding.from("url_get_port", GoUrl.class, GoUrl::port),
        CelFunctionBinding.from("url_get_escaped_path", GoUrl.class, GoUrl::escapedPath),
        CelFunctionBinding.from("url_get_query", GoUrl.class, GoUrl::query));
  }

  /** kube's {@code url()}: valid as {@code ParseRequestURI} reads it, the value as {@code Parse} reads it. */
  private static GoUrl url(String text) throws CelEvaluationException {
    try {
      GoUrl.parseRequestUri(text);
      return GoUrl.parse(text);
    } catch (GoUrl.UrlException e) {
      throw new CelEvaluationException("URL parse error during conversion from string: " + e.getMessage(), e);
    }
  }

  private static boolean isUrl(String text) {
    try {
      GoUrl.parseRequestUri(text);
      return true;
    } catch (GoUrl.UrlException e) {
      return false;
    }
  }
}
