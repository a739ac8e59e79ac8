# ctest `docs_truth`: the names and counts that docs/ states about the tree are checked against
# the tree (a review once found 8 of 12 such claims stale). Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/DocsTruth.cmake
# Checked: every folder of src/ has its line in docs/ARCHITECTURE.md and every src/ folder that
# page names exists; every program of bench/ is named there; every fuzz target and every
# black-box test file is named in docs/testing.md, and the number of fuzz targets it states is
# the number in fuzz/; the folders the library-hygiene test exempts are the ones testing.md names;
# the executables the build defines are the ones ARCHITECTURE.md and README.md name; the MCP
# tools the server registers are the ones docs/agents.md documents; every page of docs/ is
# referred to from README.md or another page, and every docs/*.md referred to exists; the
# packages of docs/dependencies.md are the ones scripts/install-deps.sh installs, and every
# library among them is included by some source; nothing cites the design notes that live
# outside the repository.
cmake_policy(SET CMP0009 NEW)  # no symlink followed by a recursive glob
get_filename_component(root "${LORE_SOURCE_DIR}" ABSOLUTE)
file(READ ${root}/docs/ARCHITECTURE.md arch)
file(READ ${root}/docs/testing.md testing)
set(failures 0)
macro(fail msg)
  message("${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()
# Fails with `msg` unless the text in the variable named `var` holds `needle`.
function(require var needle msg)
  string(FIND "${${var}}" "${needle}" at)
  if(at EQUAL -1)
    fail("${msg}")
    set(failures ${failures} PARENT_SCOPE)
  endif()
endfunction()
# Fails with `msg` unless the list in the variable named `var` holds `item`.
function(require_item var item msg)
  list(FIND ${var} "${item}" at)
  if(at EQUAL -1)
    fail("${msg}")
    set(failures ${failures} PARENT_SCOPE)
  endif()
endfunction()

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

# Executables, both ways: each `add_executable(lore…` is named in ARCHITECTURE.md and README.md
# (as `name`), and each `lore-…` named there is built.
file(READ ${root}/cmake/LoreSources.cmake sources_cmake)
file(READ ${root}/README.md readme)
string(REGEX MATCHALL "add_executable[(]lore(-[a-z]+)?[ )]" adds "${sources_cmake}")
set(programs)
foreach(a ${adds})
  string(REGEX REPLACE "add_executable[(](lore(-[a-z]+)?).*" "\\1" p "${a}")
  list(APPEND programs ${p})
endforeach()
foreach(doc ARCHITECTURE README)
  if(doc STREQUAL "README")
    set(text "${readme}")
    set(path README.md)
  else()
    set(text "${arch}")
    set(path docs/ARCHITECTURE.md)
  endif()
  foreach(p ${programs})
    # lore-test is the CLI with the test hook linked in: a test binary, named in testing.md.
    if(NOT p STREQUAL "lore-test")
      require(text "`${p}`" "${path}: the executable ${p} (cmake/LoreSources.cmake) is not named; add it")
    endif()
  endforeach()
  string(REGEX MATCHALL "`lore-[a-z]+`" named "${text}")
  list(REMOVE_DUPLICATES named)
  foreach(n ${named})
    string(REPLACE "`" "" n "${n}")
    require_item(programs ${n} "${path}: names the executable ${n}, which the build does not define; remove or rename it")
  endforeach()
endforeach()

# MCP tools, both ways: each tool of the table in src/mcp/lore_server.cpp (`{{"name", "Title",`)
# has a row in the tools table of docs/agents.md, and each row there is a registered tool.
file(READ ${root}/src/mcp/lore_server.cpp mcp)
file(READ ${root}/docs/agents.md agents)
string(REGEX MATCHALL "{{\"[a-z_]+\", \"[A-Z][^\"]*\"," specs "${mcp}")
set(tools)
foreach(t ${specs})
  string(REGEX REPLACE "{{\"([a-z_]+)\".*" "\\1" t "${t}")
  list(APPEND tools ${t})
  require(agents "| `${t}` |"
          "docs/agents.md: the MCP tool ${t} (src/mcp/lore_server.cpp) has no row in the Tools table; add one")
endforeach()
string(FIND "${agents}" "**Tools.**" from)
string(FIND "${agents}" "**Resources.**" to)
math(EXPR len "${to} - ${from}")
string(SUBSTRING "${agents}" ${from} ${len} table)
string(REGEX MATCHALL "\n[|] `[a-z_]+` [|]" rows "${table}")
foreach(r ${rows})
  string(REGEX REPLACE "\n[|] `([a-z_]+)`.*" "\\1" t "${r}")
  require_item(tools ${t}
               "docs/agents.md: documents the MCP tool ${t}, which src/mcp/lore_server.cpp does not register; remove the row")
endforeach()

# Doc pages: each is referred to (docs/<page>) from README.md or another page, and each
# docs/<page>.md referred to exists.
file(GLOB pages RELATIVE ${root}/docs ${root}/docs/*.md)
set(all_text "${readme}")
foreach(p ${pages})
  file(READ ${root}/docs/${p} text)
  set(page_${p} "${text}")
  string(APPEND all_text "\n${text}")
endforeach()
foreach(p ${pages})
  # All the text but the page itself.
  string(REPLACE "${page_${p}}" "" others "${all_text}")
  require(others "docs/${p}"
          "docs/${p}: no other page nor README.md refers to it; link it from README.md or docs/ARCHITECTURE.md")
endforeach()
string(REGEX MATCHALL "docs/[A-Za-z_-]+[.]md" refs "${all_text}")
list(REMOVE_DUPLICATES refs)
foreach(r ${refs})
  if(NOT EXISTS ${root}/${r})
    fail("README.md or docs/: refers to ${r}, which does not exist; correct the link")
  endif()
endforeach()

# Dependencies, both ways: each package of docs/dependencies.md's table (its second column) is
# one scripts/install-deps.sh installs, and each package it installs has a row.
file(READ ${root}/docs/dependencies.md deps)
# The lines of the array PACKAGES=( … ), comments dropped.
file(STRINGS ${root}/scripts/install-deps.sh lines)
set(install "")
set(inside OFF)
foreach(line IN LISTS lines)
  if(line STREQUAL ")")
    set(inside OFF)
  endif()
  if(inside)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(APPEND install " ${line}")
  endif()
  if(line STREQUAL "PACKAGES=(")
    set(inside ON)
  endif()
endforeach()
string(REGEX MATCHALL "[a-z0-9][a-z0-9.+-]+" installed "${install}")
# The table: from its header to the first blank line.
string(FIND "${deps}" "| library | package |" from)
string(SUBSTRING "${deps}" ${from} -1 table)
string(FIND "${table}" "\n\n" to)
string(SUBSTRING "${table}" 0 ${to} table)
string(REGEX MATCHALL "\n[|][^|\n]*[|][^|\n]*[|]" rows "${table}")
set(listed)
foreach(r ${rows})
  string(REGEX REPLACE "\n[|][^|]*[|]([^|]*)[|]" "\\1" cell "${r}")
  string(REGEX MATCHALL "`[^`]+`" names "${cell}")
  foreach(n ${names})
    string(REPLACE "`" "" n "${n}")
    list(APPEND listed ${n})
    require_item(installed ${n}
                 "docs/dependencies.md: the package ${n} is not in scripts/install-deps.sh; install it there or remove the row")
  endforeach()
endforeach()
foreach(n ${installed})
  require_item(listed ${n}
               "docs/dependencies.md: scripts/install-deps.sh installs ${n}, which has no row; add one saying what it is for")
endforeach()

# Each library package (`lib…-dev`, the JSON and test libraries) is used: some source includes
# its header. A library nothing includes is installed and linked for nothing: remove it. The
# fuzzers' runtime (libclang-rt) is linked by clang's -fsanitize flags, with no header: "-".
set(library_headers
    "libexpected-dev=tl/expected.hpp" "nlohmann-json3-dev=nlohmann/json.hpp"
    "libyaml-cpp-dev=yaml-cpp/yaml.h" "libcli11-dev=CLI/CLI.hpp" "libsqlite3-dev=sqlite3.h"
    "libstemmer-dev=libstemmer.h" "libtomlplusplus-dev=toml[+][+]/toml.h"
    "libcurl4-openssl-dev=curl/curl.h" "libarchive-dev=archive.h" "libpq-dev=libpq-fe.h"
    "libcpp-httplib-dev=httplib.h" "libmd4c-html0-dev=md4c-html.h" "libmd4c-dev=md4c.h" "googletest=gtest/gtest.h"
    "libgtest-dev=gtest/gtest.h" "libgmock-dev=gmock/gmock.h" "libclang-rt-14-dev=-")
# tests/ one level deep only: its folders of npm packages hold other projects' sources.
file(GLOB_RECURSE code ${root}/src/*.cpp ${root}/src/*.h ${root}/include/*.h ${root}/bench/*.cpp
     ${root}/bench/*.h ${root}/fuzz/*.cpp ${root}/tools/*.cpp)
file(GLOB tests ${root}/tests/*/*.cpp ${root}/tests/*/*.h)
list(APPEND code ${tests})
set(includes "")
foreach(f ${code})
  file(STRINGS ${f} lines REGEX "^#include <")
  string(APPEND includes "${lines};")
endforeach()
foreach(n ${installed})
  if(NOT n MATCHES "^lib.*-dev$|^nlohmann-json3-dev$|^googletest$")
    continue()
  endif()
  set(header "")
  foreach(pair ${library_headers})
    if(pair MATCHES "^${n}=(.*)")
      set(header "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(header STREQUAL "-")
    continue()
  elseif(header STREQUAL "")
    fail("cmake/DocsTruth.cmake: the library package ${n} has no header in library_headers; add the one its users include")
  elseif(NOT includes MATCHES "#include <${header}>")
    fail("scripts/install-deps.sh: installs ${n}, whose <${header}> no source includes; remove it there, from CMake and from docs/dependencies.md")
  endif()
endforeach()

# The design notes (the formats, style and review documents beside the repository) are not
# shipped: a doc or a comment that cites one sends the reader to a file they do not have.
file(GLOB_RECURSE cited ${root}/README.md ${root}/docs/*.md ${root}/src/* ${root}/include/*
     ${root}/bench/* ${root}/fuzz/* ${root}/tools/* ${root}/scripts/* ${root}/cmake/* ${root}/share/*)
file(GLOB tests ${root}/tests/*/*)
list(APPEND cited ${tests})
foreach(f ${cited})
  file(STRINGS ${f} hits REGEX "(FORMATS|STYLE|REVIEW)[.]md")
  if(hits)
    file(RELATIVE_PATH rel ${root} ${f})
    fail("${rel}: cites a design note outside the repository; cite the doc in docs/ that states the fact (write it there)")
  endif()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} claim(s) in docs/ do not match the tree")
endif()
