package org.strata.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Package cycles in Strata's main code, over every module on this class path (all but the
 * AsterixDB extension and the benchmarks): none between top-level packages, none between any two
 * packages outside lsm-core, and none between lsm-core's packages below its root. Only the root
 * package {@code org.strata.lsm} (the public API: {@code LsmStore}, its exceptions and value
 * types) is still in a cycle with the packages that implement it and use its types
 * (docs/architecture.md, "Package cycles").
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

  @Test
  void lsmCorePackagesBelowTheRootFormNoCycle() {
    slices().matching("org.strata.lsm.(*)..").should().beFreeOfCycles().check(classes);
  }
}
