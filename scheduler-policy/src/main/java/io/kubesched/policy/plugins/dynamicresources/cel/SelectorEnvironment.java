package io.kubesched.policy.plugins.dynamicresources.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.checker.CelStandardDeclarations;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import dev.cel.runtime.standard.EqualsOperator;
import dev.cel.runtime.standard.InOperator;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL environment kube's {@code k8s.io/dynamic-resource-allocation/cel} compiles device selectors in, as the
 * scheduler uses it (stored expressions, kube 1.37's default features): the {@code device} variable and the
 * libraries this package provides. Built once; immutable and safe to use from many threads.
 */
final class SelectorEnvironment {

  static final String DEVICE = "device";
  static final String DRIVER = "driver";
  static final String MULTI_ALLOC = "allowMultipleAllocations";
  static final String ATTRIBUTES = "attributes";
  static final String CAPACITY = "capacity";

  /** kube's {@code kubernetes.DRADevice} with every field the stored-expressions environment declares. */
  static final StructType DEVICE_TYPE =
      StructType.create(
          "kubernetes.DRADevice",
          ImmutableSet.of(DRIVER, MULTI_ALLOC, ATTRIBUTES, CAPACITY),
          field -> Optional.ofNullable(fieldType(field)));

  private static final Cel CEL = build();

  /**
   * What cel-go validates after checking, as kube has it: homogeneous aggregate literals (a validator in cel-go,
   * which exempts the arguments of {@code format}) and string.format's literal calls.
   */
  private static final CelValidator VALIDATOR = CelValidatorFactory.standardCelValidatorBuilder(CEL)
      .addAstValidators(HomogeneousLiterals.INSTANCE, StringFormat.VALIDATOR)
      .build();

  private SelectorEnvironment() {}

  private static CelType fieldType(String field) {
    return switch (field) {
      case DRIVER -> SimpleType.STRING;
      case MULTI_ALLOC -> SimpleType.BOOL;
      case ATTRIBUTES -> MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
      case CAPACITY -> MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, KubeLibraries.QUANTITY));
      default -> null;
    };
  }

  private static Cel build() {
    var options =
        CelOptions.current()
            .enableHeterogeneousNumericComparisons(true)
            .enableOptionalSyntax(true)
            .enableTimestampEpoch(true)
            .build();
    CelTypeProvider types =
        new CelTypeProvider() {
          @Override
          public ImmutableCollection<CelType> types() {
            return ImmutableList.of(DEVICE_TYPE, KubeLibraries.QUANTITY, KubeLibraries.SEMVER, KubeNetwork.IP,
                KubeNetwork.CIDR, KubeUrls.URL, KubeFormat.NAMED_FORMAT);
          }

          @Override
          public Optional<CelType> findType(String name) {
            return types().stream().filter(type -> type.name().equals(name)).findFirst();
          }
        };
    // kube has cel-go's strings extension at version 2: reverse() came with version 3.
    var strings = CelExtensions.strings(EnumSet.complementOf(EnumSet.of(CelStringExtensions.Function.REVERSE)));
    return CelFactory.standardCelBuilder()
        .setOptions(options)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .setTypeProvider(types)
        // in_map is bound below, so that "domain in device.attributes" sees the domains the device has; equals by
        // KubeNetwork, so that comparing an address with another type fails as in kube.
        .setStandardEnvironmentEnabled(false)
        .setStandardDeclarations(CelStandardDeclarations.newBuilder().build())
        .setStandardFunctions(CelStandardFunctions.newBuilder()
            .filterFunctions((function, overload) -> overload != InOperator.InOverload.IN_MAP
                && overload != EqualsOperator.EqualsOverload.EQUALS)
            .build())
        .addVar(DEVICE, DEVICE_TYPE)
        .addCompilerLibraries(CelExtensions.bindings(), strings, CelExtensions.sets(options),
            CelExtensions.lists(), CelExtensions.optional(), CelExtensions.comprehensions())
        .addRuntimeLibraries(strings, CelExtensions.sets(options), CelExtensions.lists(), CelExtensions.optional(),
            CelExtensions.comprehensions())
        .addFunctionDeclarations(KubeLibraries.declarations())
        .addFunctionBindings(KubeLibraries.bindings())
        .addFunctionBindings(inMap(options))
        .addFunctionDeclarations(KubeLists.declarations())
        .addFunctionBindings(KubeLists.bindings(options))
        .addFunctionDeclarations(KubeNetwork.declarations())
        .addFunctionBindings(KubeNetwork.bindings(options))
        .addFunctionDeclarations(KubeUrls.declarations())
        .addFunctionBindings(KubeUrls.bindings())
        .addFunctionDeclarations(KubeFormat.declarations())
        .addFunctionBindings(KubeFormat.bindings())
        .addFunctionDeclarations(StringFormat.declaration())
        .addFunctionBindings(StringFormat.binding())
        .build();
  }

  /** {@code key in map}, where the device's domain maps answer what they hold, not their default. */
  private static CelFunctionBinding inMap(CelOptions options) {
    var equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
    return CelFunctionBinding.from("in_map", Object.class, Map.class,
        (key, map) -> map instanceof CompiledSelector.DefaultingMap domains ? domains.has(key)
            : equality.inMap(map, key));
  }

  /**
   * Compiles {@code expression}, which must evaluate to bool (or dyn, which kube accepts too).
   *
   * @throws SelectorException with kube's message when it does not compile
   */
  static CompiledSelector compile(String expression) throws SelectorException {
    CelAbstractSyntaxTree ast;
    try {
      ast = CEL.parse(expression).getAst();
    } catch (CelValidationException e) {
      throw new SelectorException("compilation failed: " + KubeMessages.syntaxErrors(e.getMessage()));
    }
    try {
      ast = CEL.check(ast).getAst();
      ast = VALIDATOR.validate(ast).getAst();
    } catch (CelValidationException e) {
      throw new SelectorException("compilation failed: " + e.getMessage());
    }
    CelType result = ast.getResultType();
    if (!result.equals(SimpleType.BOOL) && !result.equals(SimpleType.DYN)) {
      throw new SelectorException("must evaluate to bool or the unknown type, not " + CelTypes.format(result));
    }
    try {
      return new CompiledSelector(expression, CEL.createProgram(ast));
    } catch (CelEvaluationException e) {
      throw new SelectorException("program instantiation failed: " + e.getMessage());
    }
  }
}
