# Run by ctest (a TEST_INCLUDE_FILES script, cmake/LoreSources.cmake) once the gtest tests of
# lore_tests (and lore_llm_tests, lore_team_tests, lore_archive_tests) and lore_e2e_tests are
# discovered: the labels, the COST and the timeouts of each.
# LORE_PLAN_SANITIZE is ON in the sanitizer build.
#
# The label `asan`: what scripts/test.sh runs in the sanitizer build (`ctest -L asan`). Every
# unit and black-box test but those below: each runs in the release build anyway,
# and under ASan it would only take long, finding nothing the rest does not (docs/testing.md,
# "What CI runs"). Seconds: the sanitizer build's, ctest -j2 on a 2-core machine shared with
# other builds (6 December 2026).
set(lore_plan_no_asan
  # Soaks: kill -9 at random moments, timing-bound; their release run covers them.
  "^SoakTest\\."                                          # 32 s
  "^SessionSoakTest\\."                                   # 13 s
  "^TeamSyncTest\\.KilledAtRandomPoints"                  # 5 s
  # Races of many processes: they test locking and ordering, the same code the rest runs.
  "^SearchE2E\\.TwoWritersAndASearcherNeverFail"          # 41 s
  "^CaptureConcurrency\\.EightLoreProcessesAppendAtOnce"  # 22 s
  "^TeamCoordinationTest\\.EightProposersOnFourMachines"  # 10 s
  "^ConsolidateRaceTest\\.ParallelEditsWhileConsolidations"  # 6 s
  "^LearningsTest\\.PruneRacingEightPromotions"           # 4.5 s
  # Waiting for a timeout to pass: the time is the test's, not lore's.
  "^ClaudeCodeTest\\.AHangingModelIsCutAtTheRunTimeout"   # 11 s
  "^WriteLockTest\\.TakesAndReleases"                     # 5 s
)

# COST: the seconds each long test took (release, sanitizer build; ctest -j2 on the 2-core
# machine shared with other builds, 6-7 December 2026; the sanitizer seconds of the tests it
# leaves out are gcc's), so that `ctest -j` starts the longest first even without ctest's own
# cost data (a clean clone; with it, ctest uses that). Last, the fault driver's consolidation was
# a tail of minutes on one core.
set(lore_plan_costs
  "^Ops/FaultInjection\\..*/consolidate"   76   43
  "^Ops/FaultInjection\\..*/distill"       18   10
  "^Ops/FaultInjection\\..*/review"        15   14
  "^Ops/FaultInjection\\..*/propose"        7    5
  "^Ops/FaultInjection\\..*/memory_write"   4    4
  "^Ops/FaultInjection\\..*/memory_edit"    4    4
  "^Ops/FaultInjection\\."                  3    2
  "^SearchE2E\\.TwoWritersAndASearcher"    40   41
  "^SoakTest\\."                           33   32
  "^CaptureConcurrency\\.EightLore"        10   22
  "^SessionSoakTest\\."                    10   13
  "^TeamSyncTest\\.KilledAtRandomPoints"    9    5
  "^TeamReviewTest\\.TwoReviewers"          8    3
  "^CheckRepairFaults\\."                   7    8
  "^RecordProperty\\.WhatTheEmitter"        7    6
  "^NearSlugs\\.ALargeKind"                 2    6
  "^DistillTest\\.IndexStaysWithinItsCap"   2    5
  "^ClaudeCodeTest\\.AHangingModel"        10   11
  "^TeamCoordinationTest\\.EightProposers"  3   10
  "^CaptureTest\\.EveryListedVerb"          2    9
  "^ConsolidateRaceTest\\.ParallelEdits"    2    6
  "^WriteLockTest\\.TakesAndReleases"       5    5
)

function(lore_plan_test name labels)
  set(cost 0)
  set(costs ${lore_plan_costs})
  while(costs)
    list(POP_FRONT costs re release asan)
    if(name MATCHES "${re}")
      if(LORE_PLAN_SANITIZE)
        set(cost ${asan})
      else()
        set(cost ${release})
      endif()
      break()
    endif()
  endwhile()
  # (LABELS quoted: a list in a list of properties would be split.)
  set_tests_properties("${name}" PROPERTIES LABELS "${labels}")
  if(cost)
    set_tests_properties("${name}" PROPERTIES COST ${cost})
  endif()
  # The fault driver runs an operation about a hundred times per failing call: 1,200 s; every
  # other test keeps the suite's 600 s.
  if(name MATCHES "^Ops/FaultInjection\\.")
    set_tests_properties("${name}" PROPERTIES TIMEOUT 1200)
  endif()
endfunction()

foreach(kind unit e2e)
  if(kind STREQUAL "unit")
    set(names ${lore_tests_TESTS} ${lore_llm_tests_TESTS} ${lore_team_tests_TESTS}
              ${lore_archive_tests_TESTS})
  else()
    set(names ${lore_e2e_tests_TESTS})
  endif()
  foreach(name IN LISTS names)
    set(labels "${kind};asan")
    foreach(re IN LISTS lore_plan_no_asan)
      if(name MATCHES "${re}")
        set(labels "${kind}")
      endif()
    endforeach()
    lore_plan_test("${name}" "${labels}")
  endforeach()
endforeach()
