package io.kubesched.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each rule of {@link ArchitectureRules} fails on a deliberate violation in the fixture packages. */
class ArchitectureRulesTest {

  private static final String FIXTURE = "io.kubesched.architecture.fixture";
  private static JavaClasses fixture;

  @BeforeAll
  static void importFixture() {
    fixture = new ClassFileImporter().importPackages(FIXTURE);
  }

  static Stream<Arguments> violations() {
    return Stream.of(
        Arguments.of(rule(ArchitectureRules::apiDependsOnNothingButTheJdkAndJSpecify), "LeaksFabric8"),
        Arguments.of(rule(ArchitectureRules::binderNeverSeesTheApi), "UsesApi"),
        Arguments.of(rule(ArchitectureRules::onlyTheFacadeUsesK8s), "UsesK8s"),
        Arguments.of(rule(ArchitectureRules::httpSeesNoOtherModule), "ReachesTheApi"),
        Arguments.of(rule(ArchitectureRules::theFabric8SeamSeesOnlyFabric8AndTheApi), "ReachesTheEngine"),
        Arguments.of(rule(ArchitectureRules::policyAndTestkitSeeOnlyTheApi), "ReadsPods"),
        Arguments.of(rule(ArchitectureRules::engineSeesOnlyTheApi), "QueuesNodes"),
        Arguments.of(rule(ArchitectureRules::simulationIsPure), "SimulatesNodes"),
        Arguments.of(rule(ArchitectureRules::theLoopIsLayered), "ReachesIntoTheCycle"),
        Arguments.of(rule(ArchitectureRules::thePolicyIsLayered), "RunsAPlugin"),
        Arguments.of(rule(ArchitectureRules::noPackageCycles), "cycle.a.A"),
        Arguments.of(rule(ArchitectureRules::everyPackageIsNullMarked), "Unmarked"),
        Arguments.of(rule(ArchitectureRules::noStandardStreams), "Prints"),
        Arguments.of(
            ArchitectureRules.publicTypesOfExportedPackagesStateTheirStatus(List.of(FIXTURE + ".exported")),
            "Unstated"));
  }

  @ParameterizedTest(name = "{0} catches {1}")
  @MethodSource("violations")
  void every_rule_fails_on_its_violation(ArchRule rule, String offender) {
    var result = rule.evaluate(fixture);
    assertTrue(result.hasViolation(), rule.getDescription() + " found no violation");
    var report = result.getFailureReport().toString();
    assertTrue(report.contains(offender), "report does not name " + offender + ":\n" + report);
  }

  @Test
  void the_status_rule_asks_only_public_top_level_types() {
    var report =
        ArchitectureRules.publicTypesOfExportedPackagesStateTheirStatus(List.of(FIXTURE + ".exported"))
            .evaluate(fixture)
            .getFailureReport()
            .toString();
    for (var exempt : List.of("Marked", "Hidden")) {
      assertFalse(report.contains("exported." + exempt + ">"), exempt + " needs no status:\n" + report);
    }
  }

  private static ArchRule rule(Function<String, ArchRule> factory) {
    return factory.apply(FIXTURE);
  }
}
