# Sources are found by convention so that a new module needs no edit here:
#   src/<module>/*.cpp          -> liblore (namespace lore::<module>); src/app/ is lore::app,
#                                  the layer every front end calls (include/lore/app/)
#   src/<module>/*_test.cpp     -> lore_tests (GoogleTest); those of src/llm, src/team and
#                                  src/archive -> lore_llm_tests, lore_team_tests,
#                                  lore_archive_tests, each linked against its library
#   src/cli/*.cpp               -> the `lore` executable (the only code that prints or exits)
#   src/proc/*.cpp              -> linked into every executable, never into liblore (forks, execs)
#   src/llm/*.cpp               -> the static library lore_llm (links libcurl), in `lore-llm`
#   src/team/*.cpp              -> the static library lore_team (links libpq), in `lore-team`
#   src/archive/*.cpp, src/app/archive.cpp
#                               -> the static library lore_archive (links libarchive), in
#                                  `lore-archive`
#   src/llmcli/, src/teamcli/, src/archivecli/
#                               -> the separate `lore-llm`, `lore-team`, `lore-archive`
#                                  executables (their main, calling lore::app and their library)
#   src/servecli/               -> the separate `lore-serve` executable (`lore serve`, the page;
#                                  cpp-httplib; the page's use cases are in liblore, src/app/)
#   tests/e2e/*_test.cpp        -> lore_e2e_tests (runs the real binary)
#   bench/*.cpp                 -> one program each
file(GLOB_RECURSE LORE_ALL_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*.cpp)
set(LORE_LIB_SRC)
set(LORE_CLI_SRC)
set(LORE_LLM_SRC)
set(LORE_TEAM_SRC)
set(LORE_PROC_SRC)
set(LORE_ARCHIVE_SRC)
set(LORE_SERVE_SRC)
set(LORE_TEST_SRC)
foreach(part LLM TEAM ARCHIVE)
  set(LORE_${part}_LIB_SRC)
  set(LORE_${part}_TEST_SRC)
endforeach()
foreach(f ${LORE_ALL_SRC})
  if(f MATCHES "/src/(llm|team|archive)/[^/]*_test\\.cpp$")
    string(TOUPPER "${CMAKE_MATCH_1}" part)
    list(APPEND LORE_${part}_TEST_SRC ${f})
  elseif(f MATCHES "_test\\.cpp$")
    list(APPEND LORE_TEST_SRC ${f})
  elseif(f MATCHES "/src/cli/")
    list(APPEND LORE_CLI_SRC ${f})
  elseif(f MATCHES "/src/proc/")
    list(APPEND LORE_PROC_SRC ${f})
  elseif(f MATCHES "/src/llm/")
    list(APPEND LORE_LLM_LIB_SRC ${f})
  elseif(f MATCHES "/src/llmcli/")
    list(APPEND LORE_LLM_SRC ${f})
  elseif(f MATCHES "/src/team/")
    list(APPEND LORE_TEAM_LIB_SRC ${f})
  elseif(f MATCHES "/src/teamcli/")
    list(APPEND LORE_TEAM_SRC ${f})
  elseif(f MATCHES "/src/archive/" OR f MATCHES "/src/app/archive\\.cpp$")
    list(APPEND LORE_ARCHIVE_LIB_SRC ${f})
  elseif(f MATCHES "/src/archivecli/")
    list(APPEND LORE_ARCHIVE_SRC ${f})
  elseif(f MATCHES "/src/servecli/")
    list(APPEND LORE_SERVE_SRC ${f})
  else()
    list(APPEND LORE_LIB_SRC ${f})
  endif()
endforeach()

# `lore --version` names the commit it was built from: LORE_COMMIT when given (a build from a
# tarball), else git's HEAD, read again whenever HEAD moves.
set(LORE_COMMIT "" CACHE STRING "The commit to name in --version (default: git HEAD)")
set(LORE_BUILD_COMMIT "${LORE_COMMIT}")
if(LORE_BUILD_COMMIT STREQUAL "" AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE LORE_BUILD_COMMIT
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path HEAD
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE LORE_GIT_HEAD
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --symbolic-full-name HEAD
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE LORE_GIT_REF
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    foreach(f ${LORE_GIT_HEAD} .git/${LORE_GIT_REF} .git/packed-refs)
      get_filename_component(f ${f} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
      if(EXISTS ${f})
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${f})
      endif()
    endforeach()
  endif()
endif()
if(LORE_BUILD_COMMIT STREQUAL "")
  set(LORE_BUILD_COMMIT "unknown")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.h.in ${PROJECT_BINARY_DIR}/generated/lore/version.h @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.cpp.in ${PROJECT_BINARY_DIR}/generated/version.cpp @ONLY)

# The review slash command ships as one file and is embedded into lore from it (lore init writes
# it), so the two never differ; editing the file re-runs this configure step.
set(LORE_REVIEW_COMMAND_MD ${PROJECT_SOURCE_DIR}/share/claude-code/commands/lore-review.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${LORE_REVIEW_COMMAND_MD})
file(READ ${LORE_REVIEW_COMMAND_MD} LORE_REVIEW_COMMAND_TEXT)
string(FIND "${LORE_REVIEW_COMMAND_TEXT}" ")lore_md\"" LORE_REVIEW_COMMAND_CLASH)
if(NOT LORE_REVIEW_COMMAND_CLASH EQUAL -1)
  message(FATAL_ERROR "${LORE_REVIEW_COMMAND_MD} holds the raw-string delimiter )lore_md\"")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/review_command.h.in
               ${PROJECT_BINARY_DIR}/generated/lore/agent_setup/review_command_text.h @ONLY)

add_library(lore_core STATIC ${LORE_LIB_SRC} ${PROJECT_BINARY_DIR}/generated/version.cpp)
# The commit's one file, in no folder's unity file.
set_source_files_properties(${PROJECT_BINARY_DIR}/generated/version.cpp PROPERTIES
                            SKIP_UNITY_BUILD_INCLUSION ON)
target_include_directories(lore_core PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/generated
                           PRIVATE ${PROJECT_SOURCE_DIR}/src ${STEMMER_INCLUDE})
target_compile_definitions(lore_core PUBLIC JSON_USE_IMPLICIT_CONVERSIONS=0 TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=0)
target_link_libraries(lore_core PUBLIC tl::expected nlohmann_json::nlohmann_json
                      ${YAML_CPP_STATIC} ${SQLITE3_STATIC} ${STEMMER_STATIC} Threads::Threads ${CMAKE_DL_LIBS} m)
set_target_properties(lore_core PROPERTIES OUTPUT_NAME lore)
include(${PROJECT_SOURCE_DIR}/cmake/SynonymTable.cmake)
target_precompile_headers(lore_core PRIVATE <string> <vector> <string_view> <tl/expected.hpp> <nlohmann/json.hpp>)

# Starting other programs (fork, exec): the executables' part, so that the
# library decides what to run but never runs it.
add_library(lore_proc OBJECT ${LORE_PROC_SRC})
target_include_directories(lore_proc PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore_proc PUBLIC lore_core)

# The CLI is compiled once and linked twice: into the shipped `lore` and into `lore-test`, which
# adds the test hook that obeys LORE_TEST_HOOK (include/lore/testing/point.h).
add_library(lore_cli OBJECT ${LORE_CLI_SRC})
target_include_directories(lore_cli PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore_cli PUBLIC lore_core CLI11::CLI11)
target_precompile_headers(lore_cli PRIVATE <CLI/CLI.hpp> <nlohmann/json.hpp>)

# Hot-path binary (every hook is one run of it): fully static and position
# dependent, so that there is no dynamic loader at all: no shared library to
# map and resolve, none of the ~18,000 relative relocations a PIE gets (the
# Snowball stemmers' tables, vtables, CLI11 and TOML tables). That takes about
# a third off every start (bench/hotpath_bench). It is possible because lore
# loads no shared library: libcurl, libpq and libarchive live in lore-llm,
# lore-team and lore-archive. The price: the main image loses address
# randomisation (stack, heap and mappings keep it). -DLORE_HOT_STATIC=OFF
# links glibc dynamically (static libstdc++, -no-pie); -DLORE_HOT_PIE=ON
# builds a dynamic PIE (docs/dependencies.md).
option(LORE_HOT_STATIC "Link lore fully static (fastest start)" ON)
option(LORE_HOT_PIE "Link lore as a dynamic position-independent executable (slowest start)" OFF)
set(LORE_HOT_LINK -static-libstdc++ -static-libgcc)
if(NOT LORE_HOT_PIE)
  list(APPEND LORE_HOT_LINK -no-pie)
  if(LORE_HOT_STATIC)
    list(APPEND LORE_HOT_LINK -static -Wl,--wrap=dlopen)  # src/cli/no_dlopen.cpp
  endif()
endif()
add_executable(lore $<TARGET_OBJECTS:lore_cli> $<TARGET_OBJECTS:lore_proc>)
target_link_libraries(lore PRIVATE lore_core CLI11::CLI11)
if(NOT LORE_SANITIZE)
  target_link_options(lore PRIVATE ${LORE_HOT_LINK})
endif()
# The linker writes its output in small pieces, and on this kernel (Linux 6.18, ext4) the page
# cache then holds it in small folios: until it is evicted, every start of it costs about 0.3 ms
# more than a start of the same bytes written in large writes, as `cp` or an install does
# (bench/hotpath_bench, interleaved: 1.26-1.47x for identical files; `dd bs=4k` gives the slow
# copy, `dd bs=16M` the fast one). So that the tests and bench/ time what users run, the build
# rewrites `lore` once with `cp`. Nothing depends on it: elsewhere it only costs a copy.
add_custom_command(TARGET lore POST_BUILD
  COMMAND cp $<TARGET_FILE:lore> $<TARGET_FILE:lore>.copy
  COMMAND mv -f $<TARGET_FILE:lore>.copy $<TARGET_FILE:lore>
  VERBATIM)

# lore-test keeps glibc dynamic: the fault driver's shim (tests/faults/, LD_PRELOAD) interposes
# on its system calls, which a static binary makes directly.
if(LORE_TESTS)
  add_executable(lore-test $<TARGET_OBJECTS:lore_cli> $<TARGET_OBJECTS:lore_proc>
                 ${PROJECT_SOURCE_DIR}/tests/support/env_test_hook.cpp)
  target_link_libraries(lore-test PRIVATE lore_core CLI11::CLI11)
  if(NOT LORE_SANITIZE)
    target_link_options(lore-test PRIVATE -static-libstdc++ -static-libgcc -no-pie)
  endif()
endif()

# The three parts that need a heavy shared library are static libraries of their own, each
# declaring that library, and linked only into their executable and their unit tests: so `lore`
# cannot pull one in, whatever it calls. lore_llm also starts `claude -p` (lore_proc's objects
# go into its archive, and lore-llm takes them from there).
find_package(CURL REQUIRED)
add_library(lore_llm STATIC ${LORE_LLM_LIB_SRC})
target_include_directories(lore_llm PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore_llm PUBLIC lore_core lore_proc PRIVATE CURL::libcurl)

find_package(PostgreSQL REQUIRED)
add_library(lore_team STATIC ${LORE_TEAM_LIB_SRC})
target_include_directories(lore_team PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore_team PUBLIC lore_core PRIVATE PostgreSQL::PostgreSQL)

find_package(LibArchive REQUIRED)
add_library(lore_archive STATIC ${LORE_ARCHIVE_LIB_SRC})
target_include_directories(lore_archive PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore_archive PUBLIC lore_core PRIVATE LibArchive::LibArchive)

add_executable(lore-llm ${LORE_LLM_SRC})
target_include_directories(lore-llm PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore-llm PRIVATE lore_llm CLI11::CLI11)

add_executable(lore-archive ${LORE_ARCHIVE_SRC})
target_include_directories(lore-archive PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore-archive PRIVATE lore_archive CLI11::CLI11)

# lore-serve: cpp-httplib as Debian builds it (libcpp-httplib-dev: a compiled library whose
# header must be read with the library's own flags, given by pkg-config). Only its plain-HTTP
# server is used: the page listens on loopback only (docs/serve.md).
if(LORE_SERVE_SRC)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
  # md4c's HTML renderer (libmd4c-html0-dev): the briefing's and records' Markdown shown as
  # HTML, raw HTML escaped (src/servecli/markdown.cpp).
  pkg_check_modules(MD4C_HTML REQUIRED IMPORTED_TARGET md4c-html)
  include(${PROJECT_SOURCE_DIR}/cmake/PageAssets.cmake)
  add_executable(lore-serve ${LORE_SERVE_SRC} $<TARGET_OBJECTS:lore_proc>)
  target_include_directories(lore-serve PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(lore-serve PRIVATE lore_core PkgConfig::HTTPLIB PkgConfig::MD4C_HTML CLI11::CLI11
                        Threads::Threads)
endif()

add_executable(lore-team ${LORE_TEAM_SRC} $<TARGET_OBJECTS:lore_proc>)
target_include_directories(lore-team PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(lore-team PRIVATE lore_team CLI11::CLI11)

if(LORE_TESTS)
  enable_testing()
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(lore_tests ${LORE_TEST_SRC} $<TARGET_OBJECTS:lore_proc>
                 ${PROJECT_SOURCE_DIR}/tests/support/env_test_hook.cpp)
  target_include_directories(lore_tests PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(lore_tests PRIVATE lore_core GTest::gtest GTest::gmock GTest::gtest_main)
  target_precompile_headers(lore_tests REUSE_FROM lore_core)
  # The plugin's files under share/claude-code/ are compared with what the hook table makes.
  target_compile_definitions(lore_tests PRIVATE LORE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # The WordNet tests skip only when the build had no WordNet data, never because a table broke.
  if(LORE_WORDNET_FILES)
    target_compile_definitions(lore_tests PRIVATE LORE_WORDNET_DATA=1)
  endif()
  gtest_discover_tests(lore_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS unit)
  # The unit tests of lore_llm, lore_team and lore_archive, each linked against its library (and
  # so against libcurl, libpq or libarchive, which lore_tests never links). lore_team's start a
  # throwaway PostgreSQL cluster (tests/support/pg_cluster.cpp), or skip without postgresql-15.
  foreach(part llm team archive)
    string(TOUPPER ${part} PART)
    add_executable(lore_${part}_tests ${LORE_${PART}_TEST_SRC})
    target_include_directories(lore_${part}_tests PRIVATE ${PROJECT_SOURCE_DIR}/src
                               ${PROJECT_SOURCE_DIR}/tests)
    target_link_libraries(lore_${part}_tests PRIVATE lore_${part} GTest::gtest GTest::gmock
                          GTest::gtest_main)
    gtest_discover_tests(lore_${part}_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS unit)
  endforeach()
  target_sources(lore_team_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests/support/pg_cluster.cpp
                 ${PROJECT_SOURCE_DIR}/tests/support/run.cpp)
  # The library never prints, exits, forks, execs or obeys a test-only variable.
  add_test(NAME library_hygiene COMMAND ${CMAKE_COMMAND} -DLORE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
           -DLORE_RULES=library -P ${PROJECT_SOURCE_DIR}/cmake/SourceRules.cmake)
  set_tests_properties(library_hygiene PROPERTIES LABELS unit)
  add_test(NAME docs_truth COMMAND ${CMAKE_COMMAND} -DLORE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
           -P ${PROJECT_SOURCE_DIR}/cmake/DocsTruth.cmake)
  set_tests_properties(docs_truth PROPERTIES LABELS unit)
  # Every source is as clang-format leaves it (.clang-format).
  add_test(NAME format COMMAND ${CMAKE_COMMAND} -DLORE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
           -P ${PROJECT_SOURCE_DIR}/cmake/Format.cmake)
  set_tests_properties(format PROPERTIES LABELS unit)
  # The front ends call the library through lore::app (include/lore/app/) only.
  add_test(NAME front_end_hygiene COMMAND ${CMAKE_COMMAND} -DLORE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
           -P ${PROJECT_SOURCE_DIR}/cmake/FrontEndHygiene.cmake)
  set_tests_properties(front_end_hygiene PROPERTIES LABELS unit)
  # Shared helpers have one home: YAML only through lore::doc, JSON types only from lore::json,
  # test hooks installed only by lore::testing.
  add_test(NAME one_home COMMAND ${CMAKE_COMMAND} -DLORE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
           -DLORE_RULES=one_home -P ${PROJECT_SOURCE_DIR}/cmake/SourceRules.cmake)
  set_tests_properties(one_home PROPERTIES LABELS unit)
  add_test(NAME reader_hygiene COMMAND ${CMAKE_COMMAND} -DLORE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
           -DLORE_RULES=reader -P ${PROJECT_SOURCE_DIR}/cmake/SourceRules.cmake)
  set_tests_properties(reader_hygiene PROPERTIES LABELS unit)
  # The self-test of the recall benchmark's raw-transcript baseline (bench/raw_bm25.py,
  # bench/recall_compare.py; docs/recall.md): a tiny set in a temp folder, Python 3 only, under 1 s.
  find_program(LORE_PYTHON3 python3)
  if(LORE_PYTHON3)
    add_test(NAME raw_bm25_test COMMAND ${LORE_PYTHON3} -B
             ${PROJECT_SOURCE_DIR}/bench/raw_bm25_test.py)
    set_tests_properties(raw_bm25_test PROPERTIES LABELS unit TIMEOUT 60)
  endif()

  file(GLOB LORE_E2E_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/e2e/*.cpp)
  if(LORE_E2E_SRC)
    add_executable(lore_e2e_tests ${LORE_E2E_SRC} ${PROJECT_SOURCE_DIR}/tests/support/run.cpp)
    target_include_directories(lore_e2e_tests PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
    target_link_libraries(lore_e2e_tests PRIVATE lore_core GTest::gtest GTest::gmock GTest::gtest_main)
    target_compile_definitions(lore_e2e_tests PRIVATE
      LORE_BINARY="$<TARGET_FILE:lore>"
      LORE_TEST_BINARY="$<TARGET_FILE:lore-test>"
      LORE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
      LORE_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
    if(TARGET lore-llm)
      target_compile_definitions(lore_e2e_tests PRIVATE LORE_LLM_BINARY="$<TARGET_FILE:lore-llm>")
    endif()
    add_dependencies(lore_e2e_tests lore lore-test lore-archive)
    if(TARGET lore-serve)
      target_compile_definitions(lore_e2e_tests PRIVATE LORE_SERVE_BINARY="$<TARGET_FILE:lore-serve>")
      add_dependencies(lore_e2e_tests lore-serve)
    endif()
    if(TARGET lore-team)
      target_compile_definitions(lore_e2e_tests PRIVATE LORE_TEAM_BINARY="$<TARGET_FILE:lore-team>")
      target_sources(lore_e2e_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests/support/pg_cluster.cpp)
      add_dependencies(lore_e2e_tests lore-team)
    endif()
    # The labels (`asan` among them), costs and the fault driver's longer timeout of each test:
    # cmake/TestPlan.cmake, below.
    gtest_discover_tests(lore_e2e_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS e2e)
  endif()
  # lore installed into a temporary prefix and packaged (tests/install/install_test.sh, about
  # 15 s); CI also installs the .deb with dpkg, outside ctest (scripts/test.sh).
  if(NOT LORE_SANITIZE)
    add_test(NAME install_tree COMMAND ${PROJECT_SOURCE_DIR}/tests/install/install_test.sh
             ${PROJECT_BINARY_DIR})
    set_tests_properties(install_tree PROPERTIES LABELS e2e TIMEOUT 300 COST 40)
  endif()
  # The other agents' real CLIs (tests/agents, installed from npm by scripts/test.sh) reading the
  # files lore init writes: about 10 s. Skipped (77) without tests/agents/node_modules, except in CI.
  find_program(LORE_NODE_AGENTS node)
  if(LORE_NODE_AGENTS AND NOT LORE_SANITIZE)
    add_test(NAME agent_clis COMMAND ${LORE_NODE_AGENTS} ${PROJECT_SOURCE_DIR}/tests/agents/run.mjs
             $<TARGET_FILE_DIR:lore>)
    set_tests_properties(agent_clis PROPERTIES LABELS e2e TIMEOUT 180 SKIP_RETURN_CODE 77 COST 4)
  endif()
  # The page of lore serve in Debian's chromium, driven headless by puppeteer-core (tests/serve,
  # installed from npm by scripts/test.sh): about 30 s. Skipped (77) without
  # tests/serve/node_modules or chromium, except in CI.
  if(LORE_NODE_AGENTS AND NOT LORE_SANITIZE AND TARGET lore-serve)
    add_test(NAME serve_browser COMMAND ${LORE_NODE_AGENTS} ${PROJECT_SOURCE_DIR}/tests/serve/run.mjs)
    set_tests_properties(serve_browser PROPERTIES LABELS e2e TIMEOUT 180 SKIP_RETURN_CODE 77 COST 10
      ENVIRONMENT "LORE_BIN=$<TARGET_FILE:lore>;LORE_SERVE_BIN=$<TARGET_FILE:lore-serve>")
  endif()
  # The real Claude Code CLI (tests/claude, installed from npm by scripts/test.sh) against a
  # scripted model server, with lore's hooks and MCP server: about 40 s. Without
  # tests/claude/node_modules it is skipped (exit 77), except in CI, where it fails.
  find_program(LORE_NODE node)
  if(LORE_NODE)
    add_test(NAME claude_client COMMAND ${LORE_NODE} ${PROJECT_SOURCE_DIR}/tests/claude/run.mjs
             $<TARGET_FILE_DIR:lore>)
    set_tests_properties(claude_client PROPERTIES LABELS e2e TIMEOUT 180 SKIP_RETURN_CODE 77 COST 50)
  endif()
  # Which tests carry the label `asan` (what scripts/test.sh runs in the sanitizer build), and
  # each long test's COST, so that `ctest -j` starts it first even without cost data (a clean
  # clone): cmake/TestPlan.cmake, which ctest runs once the gtest tests are discovered.
  file(WRITE ${PROJECT_BINARY_DIR}/lore_test_plan.cmake
       "set(LORE_PLAN_SANITIZE ${LORE_SANITIZE})\ninclude(${PROJECT_SOURCE_DIR}/cmake/TestPlan.cmake)\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${PROJECT_BINARY_DIR}/lore_test_plan.cmake)
endif()

if(LORE_BENCH)
  file(GLOB LORE_BENCH_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/*.cpp)
  foreach(b ${LORE_BENCH_SRC})
    get_filename_component(name ${b} NAME_WE)
    add_executable(${name} ${b})
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/bench)
    target_link_libraries(${name} PRIVATE lore_core)
    target_compile_definitions(${name} PRIVATE LORE_BINARY="$<TARGET_FILE:lore>")
    add_dependencies(${name} lore)
  endforeach()
  # The team benchmark runs lore-team against a throwaway cluster.
  if(TARGET team_bench AND TARGET lore-team)
    target_sources(team_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests/support/pg_cluster.cpp
                                      ${PROJECT_SOURCE_DIR}/tests/support/run.cpp)
    target_include_directories(team_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests)
    target_compile_definitions(team_bench PRIVATE LORE_TEAM_BINARY="$<TARGET_FILE:lore-team>")
    add_dependencies(team_bench lore-team)
  endif()
  # The model back ends' benchmark runs lore-llm (and the pinned Claude Code) against the
  # scripted server of the tests.
  if(TARGET model_backend_bench AND TARGET lore-llm)
    target_sources(model_backend_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests/support/run.cpp)
    target_include_directories(model_backend_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests)
    target_compile_definitions(model_backend_bench PRIVATE LORE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    add_dependencies(model_backend_bench lore-llm)
  endif()
endif()

# The retrieval benchmark runs as a test in its short form on the LoCoMo dev half, when the
# shared data is beside the checkout (it is for developers and CI); it fails below recall@10 0.79 or
# recall@5 0.73 (it prints 0.805 / 0.746).
set(LORE_LOCOMO_DEV ${PROJECT_SOURCE_DIR}/../shared/data/locomo/locomo-dev.json)
if(LORE_TESTS AND LORE_BENCH AND TARGET locomo_bench AND EXISTS ${LORE_LOCOMO_DEV})
  add_test(NAME locomo_dev_short COMMAND locomo_bench ${LORE_LOCOMO_DEV} --short --min-recall10 0.79
           --min-recall5 0.73)
  set_tests_properties(locomo_dev_short PROPERTIES LABELS bench TIMEOUT 600)
endif()

# Unity builds (scripts/build.sh turns them on: about three times faster from a clean clone).
# The library and its executables are compiled one folder at a time, so that an object holds
# one module: the hot-path binary pulls in only the modules it calls, and libarchive's users
# (src/archive/) stay out of the executables that do not link it. Names private to a source
# file must therefore be unique in its folder. The black-box tests (tests/e2e/) are compiled in
# batches of eight; each file's own names live in `namespace LORE_FILE_NAMESPACE`, a name unique to
# the file in a unity build and the anonymous namespace otherwise.
if(CMAKE_UNITY_BUILD)
  foreach(f ${LORE_ALL_SRC})
    string(REGEX MATCH "/src/([a-z_]+)/[^/]*$" _ "${f}")
    set(group "${CMAKE_MATCH_1}")
    if(f MATCHES "_test\\.cpp$")
      set(group "${group}_test")
    endif()
    if(f MATCHES "/src/app/archive\\.cpp$")
      set(group "app_archive")  # only lore-archive calls it: it must not drag libarchive along
    endif()
    set_source_files_properties(${f} PROPERTIES UNITY_GROUP "${group}")
  endforeach()
  foreach(t lore_core lore_cli lore_proc lore_llm lore_team lore_archive lore-llm lore-team
            lore-archive lore-serve lore_tests lore_llm_tests lore_team_tests lore_archive_tests)
    if(TARGET ${t})
      set_target_properties(${t} PROPERTIES UNITY_BUILD_MODE GROUP)
    endif()
  endforeach()
  if(TARGET lore_e2e_tests)
    set_target_properties(lore_e2e_tests PROPERTIES UNITY_BUILD_UNIQUE_ID LORE_FILE_NAMESPACE)
  endif()
elseif(TARGET lore_e2e_tests)
  target_compile_definitions(lore_e2e_tests PRIVATE LORE_FILE_NAMESPACE=)
endif()
