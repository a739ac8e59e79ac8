# ctest `docs_truth`: the names and counts that docs/ states about the tree are checked against
# the tree (REVIEW.md section 5 found 8 of 12 such claims stale). Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/DocsTruth.cmake
# Checked: every folder of src/ has its line in docs/ARCHITECTURE.md and every src/ folder that
# page names exists; every program of bench/ is named there; every fuzz target and every
# black-box test file is named in docs/testing.md, and the number of fuzz targets it states is
# the number in fuzz/; the folders the library-hygiene test exempts are the ones testing.md names.
get_filename_component(root "${LORE_SOURCE_DIR}" ABSOLUTE)
file(READ ${root}/docs/ARCHITECTURE.md arch)
file(READ ${root}/docs/testing.md testing)
set(failures 0)
macro(fail msg)
  message("${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()

# Folders: src/<dir>/ both ways.
file(GLOB dirs LIST_DIRECTORIES true RELATIVE ${root}/src ${root}/src/*)
foreach(d ${dirs})
  if(IS_DIRECTORY ${root}/src/${d})
    string(FIND "${arch}" "`src/${d}/`" at)
    if(at EQUAL -1)
      fail("docs/ARCHITECTURE.md: no line for src/${d}/; add one to the folder table")
    endif()
  endif()
endforeach()
string(REGEX MATCHALL "`src/[a-z_]+/`" named "${arch}")
list(REMOVE_DUPLICATES named)
foreach(n ${named})
  string(REGEX REPLACE "`src/([a-z_]+)/`" "\\1" d "${n}")
  if(NOT IS_DIRECTORY ${root}/src/${d})
    fail("docs/ARCHITECTURE.md: names src/${d}/, which does not exist; remove or rename it")
  endif()
endforeach()

# Benchmarks.
file(GLOB benches RELATIVE ${root}/bench ${root}/bench/*.cpp)
foreach(b ${benches})
  string(REPLACE ".cpp" "" b "${b}")
  string(FIND "${arch}" "`${b}`" at)
  if(at EQUAL -1)
    fail("docs/ARCHITECTURE.md: bench/${b}.cpp is not listed on the bench/ line; add it")
  endif()
endforeach()

# Fuzz targets, named and counted.
file(GLOB fuzzers RELATIVE ${root}/fuzz ${root}/fuzz/*_fuzz.cpp)
list(LENGTH fuzzers nfuzz)
foreach(f ${fuzzers})
  string(REPLACE "_fuzz.cpp" "" f "${f}")
  string(FIND "${testing}" "| `${f}` |" at)
  if(at EQUAL -1)
    fail("docs/testing.md: the fuzz target ${f} has no row in the fuzzing table; add one")
  endif()
endforeach()
string(REGEX MATCHALL "[0-9]+ (fuzz )?targets|[0-9]+ x [0-9]+ s" counts "${testing}")
foreach(c ${counts})
  string(REGEX REPLACE "^([0-9]+).*" "\\1" n "${c}")
  if(NOT n EQUAL nfuzz)
    fail("docs/testing.md: says '${c}', fuzz/ has ${nfuzz}; correct the count")
  endif()
endforeach()

# Black-box test files.
file(GLOB e2e RELATIVE ${root}/tests/e2e ${root}/tests/e2e/*_test.cpp)
foreach(t ${e2e})
  string(FIND "${testing}" "${t}" at)
  if(at EQUAL -1)
    fail("docs/testing.md: tests/e2e/${t} is not named; say what it tests")
  endif()
endforeach()

# The hygiene test's exemptions.
file(READ ${root}/cmake/SourceRules.cmake hygiene)
string(REGEX MATCH "\"src/\\(([a-z_|]+)\\)/\"" m "${hygiene}")
string(REPLACE "|" ";" exempt "${CMAKE_MATCH_1}")
foreach(e ${exempt})
  string(FIND "${testing}" "`src/${e}/`" at)
  if(at EQUAL -1)
    fail("docs/testing.md: library_hygiene exempts src/${e}/, which the page does not name")
  endif()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} claim(s) in docs/ do not match the tree")
endif()
