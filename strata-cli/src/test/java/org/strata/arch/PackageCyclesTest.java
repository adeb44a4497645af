package org.strata.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Package cycles in Strata's main code, over every module on this class path (all but the
 * AsterixDB extension and the benchmarks). The packages below {@code org.strata.lsm} (lsm-core)
 * still depend on each other in cycles, mostly through the root package (docs/architecture.md,
 * "Package cycles"); between the other packages, and between lsm-core as a whole and the rest,
 * there is none, and this test keeps it so.
 */
class PackageCyclesTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")
            && !location.contains("/test-classes/"))
        .importPackages("org.strata");
  }

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching("org.strata.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void packagesOutsideLsmCoreFormNoCycle() {
    slices().matching("org.strata.(**)").should().beFreeOfCycles().check(classes.that(
        com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage(
            "org.strata.lsm..")));
  }
}
