package io.kubesched.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.GeneralCodingRules;
import java.util.Collection;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.NullMarked;

/**
 * The rules the library's code is held to (CONTRIBUTING.md, "Rules the build enforces"), over the packages
 * below {@code root} ({@code io.kubesched} for the library; a fixture root to prove each rule catches a
 * violation).
 */
final class ArchitectureRules {

  private ArchitectureRules() {}

  static List<ArchRule> all(String root) {
    return List.of(
        apiDependsOnNothingButTheJdkAndJSpecify(root),
        binderNeverSeesTheApi(root),
        onlyTheFacadeUsesK8s(root),
        httpSeesNoOtherModule(root),
        theFabric8SeamSeesOnlyFabric8AndTheApi(root),
        policyAndTestkitSeeOnlyTheApi(root),
        engineSeesOnlyTheApi(root),
        simulationIsPure(root),
        theLoopIsLayered(root),
        thePolicyIsLayered(root),
        noPackageCycles(root),
        everyPackageIsNullMarked(root),
        noStandardStreams(root));
  }

  static ArchRule apiDependsOnNothingButTheJdkAndJSpecify(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + ".api..")
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages(root + ".api..", "java..", "org.jspecify..", "org.apiguardian..")
        .as("the api depends on nothing but the JDK, JSpecify and apiguardian");
  }

  static ArchRule binderNeverSeesTheApi(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + ".binder..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(root + ".api..")
        .as("the binder never depends on the api");
  }

  static ArchRule onlyTheFacadeUsesK8s(String root) {
    return noClasses()
        .that()
        .resideOutsideOfPackages(root + ".k8s..", root + ".facade..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(root + ".k8s..")
        .as("only the facade uses the internal k8s package");
  }

  static ArchRule httpSeesNoOtherModule(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + ".http..")
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages(
            root + ".http..", root + ".fabric8..", "io.fabric8.kubernetes.client..", "java..", "javax..",
            "org.jspecify..")
        .as("the http transport sees fabric8's client API, the fabric8 line's seam and the JDK only, no other"
            + " module of the library");
  }

  /**
   * The seam that is built once per fabric8 line stays a leaf: what it does differs per line, so whatever it
   * reached in the library would be built per line too.
   */
  static ArchRule theFabric8SeamSeesOnlyFabric8AndTheApi(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + ".fabric8..")
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages(
            root + ".fabric8..", root + ".api..", "io.fabric8..", "com.fasterxml.jackson..", "tools.jackson..",
            "java..", "javax..", "org.jspecify..")
        .as("the fabric8 line's seam sees fabric8, Jackson, the api and the JDK only, no other module of the"
            + " library");
  }

  static ArchRule policyAndTestkitSeeOnlyTheApi(String root) {
    return noClasses()
        .that()
        .resideInAnyPackage(root + ".policy..", root + ".testkit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.fabric8..",
            root + ".adapter..",
            root + ".binder..",
            root + ".informer..",
            root + ".k8s..",
            root + ".facade..")
        .as("policies and the testkit are pure: they see the api, never a Kubernetes client");
  }

  static ArchRule simulationIsPure(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + ".simulation..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.fabric8..",
            root + ".adapter..",
            root + ".binder..",
            root + ".informer..",
            root + ".k8s..",
            root + ".facade..")
        .as("the simulation is pure: the api, the policies and the engine, never a Kubernetes client or the loop");
  }

  static ArchRule engineSeesOnlyTheApi(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + ".engine..")
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages(
            root + ".engine..", root + ".api..", "java..", "org.jspecify..", "org.apiguardian..")
        .as("the engine (queue and cache) sees only the api and the JDK: no Kubernetes type, no client");
  }

  /**
   * The informer's parts, top down: the composition ({@code SchedulingLoop}), the watching, the cycles, then
   * leader election and the reports, each used only by the parts above it (kube's scheduler.go over
   * eventhandlers.go over schedule_one.go).
   */
  static ArchRule theLoopIsLayered(String root) {
    var informer = root + ".informer";
    return layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .withOptionalLayers(true)
        .layer("composition").definedBy(informer)
        .layer("watching").definedBy(informer + ".watch..")
        .layer("cycles").definedBy(informer + ".cycle..")
        .layer("leader election and reports").definedBy(informer + ".leader..", informer + ".report..")
        .whereLayer("composition").mayNotBeAccessedByAnyLayer()
        .whereLayer("watching").mayOnlyBeAccessedByLayers("composition")
        .whereLayer("cycles").mayOnlyBeAccessedByLayers("composition", "watching")
        .whereLayer("leader election and reports")
        .mayOnlyBeAccessedByLayers("composition", "watching", "cycles")
        .as("the loop's packages are layered: composition, watching, cycles, then leader election and reports");
  }

  /**
   * The policy module, top down: the value users build ({@code Policy}, {@code DefaultPolicy}) and the readers
   * of files, then the plugins, then the runtime that runs them, then the framework's extension points
   * (kube's {@code framework} under {@code framework/runtime} and {@code framework/plugins}). A plugin sees the
   * extension points, its arguments and the shared helpers only.
   */
  static ArchRule thePolicyIsLayered(String root) {
    var policy = root + ".policy";
    return layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .withOptionalLayers(true)
        .layer("value and readers").definedBy(policy, policy + ".config..")
        .layer("plugins").definedBy(policy + ".plugins..")
        .layer("runtime").definedBy(policy + ".framework.runtime..")
        .layer("extension points").definedBy(policy + ".framework")
        .whereLayer("value and readers").mayNotBeAccessedByAnyLayer()
        .whereLayer("plugins").mayOnlyBeAccessedByLayers("value and readers")
        .whereLayer("runtime").mayOnlyBeAccessedByLayers("value and readers")
        .whereLayer("extension points").mayOnlyBeAccessedByLayers("value and readers", "plugins", "runtime")
        .as("the policy's packages are layered: value and readers, plugins, runtime, extension points");
  }

  static ArchRule noPackageCycles(String root) {
    return slices().matching(root + ".(**)").should().beFreeOfCycles().as("no package cycles");
  }

  static ArchRule everyPackageIsNullMarked(String root) {
    return classes()
        .that()
        .resideInAPackage(root + "..")
        .should(
            new ArchCondition<JavaClass>("be in a @NullMarked package") {
              @Override
              public void check(JavaClass javaClass, ConditionEvents events) {
                var marked = javaClass.getPackage().isAnnotatedWith(NullMarked.class);
                events.add(
                    new SimpleConditionEvent(
                        javaClass,
                        marked,
                        "package " + javaClass.getPackageName() + " of " + javaClass.getName()
                            + (marked ? " is" : " is not") + " @NullMarked"));
              }
            })
        .as("every package is @NullMarked");
  }

  static ArchRule noStandardStreams(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + "..")
        // The server's entry point hands its standard streams to the command line (--help, --version, errors).
        .and()
        .doNotHaveFullyQualifiedName(root + ".server.Main")
        .should(GeneralCodingRules.ACCESS_STANDARD_STREAMS)
        .as("library code logs through SLF4J, never System.out or System.err");
  }

  /**
   * @param exported the packages a module exports to everyone (not {@code exports … to}): what users may
   *     import on the module path
   */
  static ArchRule publicTypesOfExportedPackagesStateTheirStatus(Collection<String> exported) {
    return classes()
        .that()
        .arePublic()
        .and()
        .areTopLevelClasses()
        .and()
        .resideInAnyPackage(exported.toArray(String[]::new))
        .should()
        .beAnnotatedWith(API.class)
        .as("every public type of an exported package says how stable it is (@API status)");
  }
}
