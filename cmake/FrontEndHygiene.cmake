# ctest `front_end_hygiene`: the front ends (src/cli, src/llmcli, src/teamcli,
# src/archivecli, src/servecli, src/mcp) call the library through its application layer,
# lore::app (include/lore/app/), and nothing else. It checks two things.
#
# Includes. A front end may include:
#   - lore/app/...: the use cases, the store opener, the reporter, and the types
#     their signatures name (store::Store, consolidate::Settings, ...);
#   - lore/error.h and lore/version.h;
#   - the platform a front end needs for its own input and output, which
#     knows nothing of memory, records or stores: lore/json/value.h and
#     lore/json/dump_js.h (the JSON types and the JavaScript-exact writer the
#     output is rendered with), lore/json/reader.h and lore/json/field.h (the
#     bounded parser and field readers for the JSON a front end is given),
#     lore/text/utf8.h and lore/text/edit_distance.h (measuring and
#     suggesting text), lore/fs/fd.h (for its own descriptors only: see Calls);
#   - its own folder's headers (cli/..., mcp/... and lore/mcp/...);
#   - src/cli/cmd_mcp.cpp: lore/mcp/lore_server.h, as `lore mcp` hosts the MCP front end.
#   - proc/...: the executables start processes, the library never does;
#   - cli/guard.h and cli/report.h, the last-resort handler and the writing
#     half of the reporter that every main shares (header-only);
#   - lore-llm's lore/llm/... and lore-team's lore/team/...: the part of that
#     executable that links the heavy library, handed to app as an engine.
# Every other include is listed in `exceptions`, file by file.
#
# Calls. A header that app includes for a type brings the module's functions
# along, so the names a front end writes are checked too: `<ns>::<Name>` (with
# or without `lore::`, through a namespace alias such as `namespace cons =
# consolidate;`), outside comments and string literals, where <ns> is a
# feature module, a folder of src/ other than app, proc and the front ends
# (and llm, team for lore-llm, lore-team). Allowed are:
#   - the names app's headers name, read from include/lore/app/*.h outside
#     their comments: the types of the use cases' signatures (store::Store,
#     doc::Kind, memory::Outcome, text::TimePoint, ...), with their members
#     and enumerators (store::RawCheck::kSkip);
#   - every <ns>::<Name> that a platform header above declares (json::DumpJs,
#     json::ParseOrdered, text::CodePointCount), except that of lore/fs/fd.h
#     only fs::WriteAll, fs::ErrnoError and fs::Basename: writing to the
#     front end's own stdout, stderr or terminal, naming the error of reading
#     its own stdin, and the name it was run as. Opening, reading or writing
#     a file of the store stays the library's.
# Every other use is listed in `call_exceptions`, one "<file> <ns>::" entry
# per file and module.
#
# Both lists can only shrink: an include or a call not listed fails, and so
# does an entry that no longer matches (remove it). Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/FrontEndHygiene.cmake
get_filename_component(LORE_SOURCE_DIR "${LORE_SOURCE_DIR}" ABSOLUTE)
set(exceptions
)
# The calls into feature modules that remain, file by file (see "Calls" above).
set(call_exceptions
)
file(GLOB_RECURSE sources RELATIVE ${LORE_SOURCE_DIR}
     ${LORE_SOURCE_DIR}/src/cli/*.cpp ${LORE_SOURCE_DIR}/src/cli/*.h
     ${LORE_SOURCE_DIR}/src/llmcli/*.cpp ${LORE_SOURCE_DIR}/src/llmcli/*.h
     ${LORE_SOURCE_DIR}/src/teamcli/*.cpp ${LORE_SOURCE_DIR}/src/teamcli/*.h
     ${LORE_SOURCE_DIR}/src/archivecli/*.cpp ${LORE_SOURCE_DIR}/src/archivecli/*.h
     ${LORE_SOURCE_DIR}/src/servecli/*.cpp ${LORE_SOURCE_DIR}/src/servecli/*.h
     ${LORE_SOURCE_DIR}/src/mcp/*.cpp ${LORE_SOURCE_DIR}/src/mcp/*.h)
list(SORT sources)
set(failures 0)
set(used)
foreach(rel ${sources})
  if(rel MATCHES "_test[.]cpp$")
    continue()
  endif()
  string(REGEX REPLACE "^src/([a-z_]+)/.*" "\\1" folder "${rel}")
  file(STRINGS ${LORE_SOURCE_DIR}/${rel} includes REGEX "^#include \"")
  foreach(line ${includes})
    string(REGEX REPLACE "^#include \"([^\"]*)\".*" "\\1" header "${line}")
    if(header MATCHES "^lore/app/" OR header MATCHES "^lore/(error|version)[.]h$" OR
       header MATCHES "^lore/json/(value|dump_js|reader|field)[.]h$" OR
       header MATCHES "^lore/text/(utf8|edit_distance)[.]h$" OR header STREQUAL "lore/fs/fd.h" OR
       header MATCHES "^(lore/)?${folder}/" OR header MATCHES "^proc/" OR
       (rel STREQUAL "src/cli/cmd_mcp.cpp" AND header STREQUAL "lore/mcp/lore_server.h") OR
       header MATCHES "^cli/(guard|report)[.]h$" OR
       (folder STREQUAL "llmcli" AND header MATCHES "^lore/llm/") OR
       (folder STREQUAL "teamcli" AND header MATCHES "^lore/team/"))
      continue()
    endif()
    list(FIND exceptions "${rel} ${header}" at)
    if(at EQUAL -1)
      message("${rel}: includes ${header}; a front end calls the library through lore/app/ "
              "(add the use case there)")
      math(EXPR failures "${failures} + 1")
    else()
      list(APPEND used "${rel} ${header}")
    endif()
  endforeach()
endforeach()
foreach(e ${exceptions})
  list(FIND used "${e}" at)
  if(at EQUAL -1)
    message("cmake/FrontEndHygiene.cmake: the exception \"${e}\" is gone: remove it from the list")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()

# `line` without its comment, its string and character literals and `lore::`.
function(code_of line out)
  string(REGEX REPLACE "\\\\." "" line "${line}")
  string(REGEX REPLACE "\"[^\"]*\"" "\"\"" line "${line}")
  string(REGEX REPLACE "'[^']*'" "''" line "${line}")
  string(REGEX REPLACE "//.*" "" line "${line}")
  string(REGEX REPLACE "(::)?lore::" "" line "${line}")
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

# The checked namespaces: the folders of src/ that are feature modules.
file(GLOB folders LIST_DIRECTORIES true RELATIVE ${LORE_SOURCE_DIR}/src ${LORE_SOURCE_DIR}/src/*)
set(modules)
foreach(f ${folders})
  if(IS_DIRECTORY ${LORE_SOURCE_DIR}/src/${f} AND
     NOT f MATCHES "^(app|proc|cli|mcp|servecli|llmcli|teamcli|archivecli|testing)$")
    list(APPEND modules ${f})
  endif()
endforeach()

# The allowed names: what app's headers name, what the JSON headers declare.
set(allowed)
file(GLOB app_headers ${LORE_SOURCE_DIR}/include/lore/app/*.h)
foreach(h ${app_headers})
  file(STRINGS ${h} lines REGEX "::")
  foreach(line ${lines})
    code_of("${line}" code)
    string(REGEX MATCHALL "[a-z_]+::[A-Za-z_][A-Za-z0-9_]*" names "${code}")
    list(APPEND allowed ${names})
  endforeach()
endforeach()
foreach(h json/value json/dump_js json/reader json/field text/utf8 text/edit_distance)
  string(REGEX REPLACE "/.*" "" ns "${h}")
  file(STRINGS ${LORE_SOURCE_DIR}/include/lore/${h}.h lines)
  foreach(line ${lines})
    code_of("${line}" code)
    string(REGEX MATCHALL "[A-Z][A-Za-z0-9_]*[ ]*[(]" names "${code}")
    string(REGEX MATCHALL "(struct|class|enum class|enum|using) [A-Z][A-Za-z0-9_]*" types "${code}")
    foreach(n ${names} ${types})
      string(REGEX REPLACE "[ (]+$" "" n "${n}")
      string(REGEX REPLACE "^.* " "" n "${n}")
      list(APPEND allowed "${ns}::${n}")
    endforeach()
  endforeach()
endforeach()
list(APPEND allowed fs::WriteAll fs::ErrnoError fs::Basename)
list(REMOVE_DUPLICATES allowed)

set(called)
foreach(rel ${sources})
  if(rel MATCHES "_test[.]cpp$")
    continue()
  endif()
  string(REGEX REPLACE "^src/([a-z_]+)/.*" "\\1" folder "${rel}")
  set(own)
  if(folder STREQUAL "llmcli")
    set(own llm)
  elseif(folder STREQUAL "teamcli")
    set(own team)
  endif()
  file(STRINGS ${LORE_SOURCE_DIR}/${rel} lines REGEX "::|namespace")
  # Aliases first: `namespace cons = consolidate;` makes cons:: consolidate::.
  set(aliases)
  foreach(line ${lines})
    code_of("${line}" code)
    if(code MATCHES "namespace ([a-z_]+) = (::)?([a-z_]+);")
      list(APPEND aliases "${CMAKE_MATCH_1}=${CMAKE_MATCH_3}")
    endif()
  endforeach()
  set(problems)
  foreach(line ${lines})
    if(line MATCHES "^[ ]*(//|#include|[*])")
      continue()
    endif()
    code_of("${line}" code)
    string(REGEX MATCHALL "(^|[^A-Za-z0-9_:])[a-z_]+::[A-Za-z_][A-Za-z0-9_]*" uses "${code}")
    foreach(use ${uses})
      string(REGEX REPLACE "^[^a-z_]" "" use "${use}")
      string(REGEX REPLACE "::.*" "" ns "${use}")
      string(REGEX REPLACE "^[a-z_]+::" "" name "${use}")
      foreach(a ${aliases})
        if(a MATCHES "^${ns}=(.*)")
          set(ns "${CMAKE_MATCH_1}")
        endif()
      endforeach()
      list(FIND modules "${ns}" checked)
      list(FIND allowed "${ns}::${name}" ok)
      if(checked EQUAL -1 OR NOT ok EQUAL -1 OR ns STREQUAL "${own}")
        continue()
      endif()
      list(FIND call_exceptions "${rel} ${ns}::" at)
      if(at EQUAL -1)
        list(APPEND problems "${ns}::${name}")
      else()
        list(APPEND called "${rel} ${ns}::")
      endif()
    endforeach()
  endforeach()
  if(problems)
    list(REMOVE_DUPLICATES problems)
    list(JOIN problems ", " problems)
    message("${rel}: calls ${problems}; a front end calls the library through lore::app "
            "(add the use case there)")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
foreach(e ${call_exceptions})
  list(FIND called "${e}" at)
  if(at EQUAL -1)
    message("cmake/FrontEndHygiene.cmake: the call exception \"${e}\" is gone: remove it "
            "from the list")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} front-end include or call problem(s)")
endif()
