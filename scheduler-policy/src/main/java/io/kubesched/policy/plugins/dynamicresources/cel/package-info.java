/**
 * Device selectors in CEL as Kubernetes' {@code k8s.io/dynamic-resource-allocation/cel} compiles and evaluates
 * them for kube-scheduler 1.37 (the stored-expressions environment, default features), over Google's cel-java
 * (module {@code dev.cel}, from {@code io.kubesched:scheduler-cel}). Internal: not exported.
 *
 * <p>{@link io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors} compiles an expression once and keeps
 * it (kube's {@code cel.Cache}: least recently used, 10 entries as kube-scheduler's, failed compilations not kept);
 * a {@link io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelector} evaluates it against one device. Both are
 * safe to use from many threads. Every failure is a {@link
 * io.kubesched.policy.plugins.dynamicresources.cel.SelectorException} whose message is kube's: {@code compilation
 * failed: ERROR: <input>:1:1: Syntax error: …}, {@code must evaluate to bool or the unknown type, not int}, {@code no
 * such key: name}, {@code operation cancelled: actual cost limit exceeded}, {@code CEL result of type list could
 * not be converted to bool}.
 *
 * <h2>What an expression sees</h2>
 *
 * <ul>
 *   <li>{@code device.driver} (string), {@code device.allowMultipleAllocations} (bool, false when unset),
 *       {@code device.attributes} (domain → id → value: int, bool, string or semver; dyn to the checker) and
 *       {@code device.capacity} (domain → id → quantity). A name without a domain belongs to the driver's; an
 *       unknown domain reads as an empty map, so a missing attribute fails with {@code no such key: …}, while {@code
 *       "domain" in device.attributes} sees only the domains the device has. Any other field fails to compile
 *       ({@code undefined field}).
 *   <li>CEL's standard library and macros, with kube's options: homogeneous aggregate literals, cross-type numeric
 *       comparisons, optional types ({@code .?name}, {@code optional.of}), partial-match {@code matches} (RE2).
 *   <li>cel-go's extensions at the versions kube enables: bindings ({@code cel.bind}), strings version 2 ({@code
 *       charAt}, {@code indexOf}, {@code lastIndexOf}, {@code join}, {@code lowerAscii}, {@code upperAscii}, {@code
 *       quote}, {@code replace}, {@code split}, {@code substring}, {@code trim}), sets ({@code sets.contains},
 *       {@code sets.equivalent}, {@code sets.intersects}), lists version 3 ({@code distinct}, {@code flatten},
 *       {@code lists.range}, {@code reverse}, {@code slice}, {@code sort}, {@code sortBy}) and two-variable
 *       comprehensions ({@code all(k, v, …)}, {@code transformList}, …) as cel-java implements them.
 *   <li>Kubernetes' libraries, with kube's semantics and messages: quantity ({@code quantity}, {@code isQuantity},
 *       {@code sign}, {@code isGreaterThan}, {@code isLessThan}, {@code compareTo}, {@code add}, {@code sub},
 *       {@code asInteger}, {@code isInteger}, {@code asApproximateFloat}), semver version 1 ({@code semver(s)},
 *       {@code semver(s, true)}, {@code isSemver}, comparisons, {@code major}, {@code minor}, {@code patch}; blang's
 *       strict parsing), regex ({@code find}, {@code findAll}), lists version 1 ({@code isSorted}, {@code min},
 *       {@code max} over int, uint, double, bool, string, duration, timestamp and bytes lists, {@code sum} over int,
 *       uint, double and duration lists,
 *       {@code indexOf} and {@code lastIndexOf} on any list), {@code includes}, URLs ({@code url}, {@code isURL},
 *       {@code getScheme}, {@code getHost}, {@code getHostname}, {@code getPort}, {@code getEscapedPath}, {@code
 *       getQuery}; Go's net/url) and format ({@code format.dns1123Label()} and the other named formats, {@code
 *       format.named}, {@code validate}).
 *   <li>Kubernetes' IP and CIDR libraries ({@code KubeNetwork}): {@code ip}, {@code isIP}, {@code ip.isCanonical},
 *       {@code family}, {@code isUnspecified}, {@code isLoopback}, {@code isLinkLocalMulticast}, {@code
 *       isLinkLocalUnicast}, {@code isGlobalUnicast}, {@code cidr}, {@code isCIDR}, {@code containsIP}, {@code
 *       containsCIDR}, {@code ip()}, {@code masked}, {@code prefixLength}, {@code string} and {@code ==} of both,
 *       {@code type(…) == net.IP}; text read exactly as Go's {@code netip} reads it, with kube's messages.
 *   <li>cel-go's {@code string.format} at strings version 2 ({@code "%s: %.2f".format([name, ratio])}), with
 *       cel-go's compile-time check of a literal call, and kube's homogeneous-literal rule exempting its arguments.
 * </ul>
 *
 * <h2>Gaps</h2>
 *
 * <ul>
 *   <li>Every function of kube's device selector environment is declared; the authorizer libraries need a variable
 *       device selectors do not have.
 *   <li>Addresses and networks compared with values of another type inside lists or maps ({@code [dyn(ip("::1"))]
 *       == [dyn(1)]}) are unequal here, equal in cel-go, whose container equality takes its opaque values' "no
 *       such overload" for a match (only {@code dyn} reaches this); an address or network used as a map key is
 *       found here, while cel-go fails the look-up ({@code invalid qualifier type: cel.IP}).
 *   <li>{@code string.format} fails, naming the clause, where kube would print what cel-java cannot know or x/text
 *       would truncate: a timestamp (cel-java keeps the instant, not the offset kube prints) and a {@code %f} or
 *       {@code %e} precision above 255. URLs follow Go's net/url on UTF-8 bytes; an escape that unescapes to bytes
 *       that are not UTF-8 reads back with U+FFFD where kube keeps the bytes. Go's quoting ({@code %q} in messages
 *       and printed lists) judges printable runes by Java's Unicode tables.
 *   <li>Cost: cel-java tracks none. The run-time limit (kube's {@code CELSelectorExpressionMaxCost}, 1,000,000)
 *       is enforced over an approximation of cel-go's count ({@code CostTracker}): a runaway expression stops
 *       with kube's message, but one near the limit may stop at a somewhat different point. The compile-time
 *       estimate is not computed (kube-scheduler's cache disables it too), and the 10 KiB length limit is the
 *       API server's validation, not the compiler's.
 *   <li>List-typed attributes (alpha in 1.37) are not in the DRA model, so {@code includes} and iteration see
 *       scalars only; iterating over one fails as kube's does ({@code got 'types.Int', expected iterable type}).
 * </ul>
 */
@NullMarked
package io.kubesched.policy.plugins.dynamicresources.cel;

import org.jspecify.annotations.NullMarked;
