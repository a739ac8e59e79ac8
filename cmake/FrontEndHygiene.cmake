# ctest `front_end_hygiene`: the front ends (src/cli, src/llmcli, src/teamcli,
# src/archivecli, src/servecli, src/mcp) call the library through its application layer,
# lore::app (include/lore/app/), and nothing else. A front end may include:
#   - lore/app/...: the use cases, the store opener, the reporter, and the types
#     their signatures name (store::Store, consolidate::Settings, ...);
#   - lore/error.h and lore/version.h;
#   - lore/json/value.h and lore/json/dump_js.h: the JSON types and the
#     JavaScript-exact writer the front ends render their output with;
#   - its own folder's headers (cli/..., mcp/... and lore/mcp/...);
#   - proc/...: the executables start processes, the library never does;
#   - cli/guard.h and cli/report.h, the last-resort handler and the writing
#     half of the reporter that every main shares (header-only);
#   - lore-llm's lore/llm/... and lore-team's lore/team/...: the part of that
#     executable that links the heavy library, handed to app as an engine.
# Every other include is listed below, file by file, as it stands today. The
# list can only shrink: an include not listed fails, and so does an entry
# that no longer matches an include (remove it). Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/FrontEndHygiene.cmake
set(exceptions
    "src/cli/app.cpp lore/fs/fd.h"
    "src/cli/app.cpp lore/text/edit_distance.h"
    "src/cli/cmd_consolidate.cpp lore/consolidate/rules_engine.h"
    "src/cli/cmd_consolidate.cpp lore/consolidate/runner.h"
    "src/cli/cmd_consolidate.cpp lore/store/store.h"
    "src/cli/cmd_distill.cpp lore/fs/fd.h"
    "src/cli/cmd_extract.cpp lore/extract/extract.h"
    "src/cli/cmd_extract.cpp lore/extract/rules.h"
    "src/cli/cmd_extract.cpp lore/extract/settings.h"
    "src/cli/cmd_extract.cpp lore/fs/fd.h"
    "src/cli/cmd_extract.cpp lore/store/store.h"
    "src/cli/cmd_hook.cpp lore/extract/settings.h"
    "src/cli/cmd_hook.cpp lore/hook/pre_tool_use.h"
    "src/cli/cmd_hook.cpp lore/hook/session.h"
    "src/cli/cmd_init.cpp lore/agent_setup/diff.h"
    "src/cli/cmd_init.cpp lore/agent_setup/install.h"
    "src/cli/cmd_init.cpp lore/agent_setup/review_command.h"
    "src/cli/cmd_lint.cpp lore/fs/fd.h"
    "src/cli/cmd_lint.cpp lore/lint/scan.h"
    "src/cli/cmd_mcp.cpp lore/mcp/lore_server.h"
    "src/cli/cmd_proposals.cpp lore/proposals/collect.h"
    "src/cli/cmd_review.cpp lore/fs/fd.h"
    "src/cli/cmd_review.cpp lore/proposals/answers.h"
    "src/cli/cmd_review.cpp lore/proposals/batches.h"
    "src/cli/cmd_review.cpp lore/proposals/learning.h"
    "src/cli/cmd_review.cpp lore/proposals/picker.h"
    "src/cli/cmd_review.cpp lore/proposals/review.h"
    "src/cli/cmd_review.cpp lore/store/store.h"
    "src/cli/cmd_review.cpp lore/teamsync/review.h"
    "src/cli/io.cpp lore/fs/fd.h"
    "src/cli/proposal_cli.h lore/proposals/picker.h"
    "src/cli/record_flags.cpp lore/doc/facts.h"
    "src/cli/record_flags.cpp lore/fs/fd.h"
    "src/cli/record_flags.h lore/doc/record.h"
    "src/cli/record_flags.h lore/lint/finding.h"
    "src/cli/record_flags.h lore/text/time.h"
    "src/cli/review_tty.cpp lore/fs/fd.h"
    "src/cli/team_hooks.cpp lore/config/config.h"
    "src/cli/team_hooks.cpp lore/fs/fd.h"
    "src/cli/team_hooks.h lore/store/store.h"
    "src/cli/team_review.cpp lore/fs/fd.h"
    "src/cli/team_review.cpp lore/teamsync/review.h"
    "src/llmcli/main.cpp lore/store/store.h"
    "src/mcp/lore_server.cpp lore/proposals/record.h"
    "src/mcp/lore_tools.h lore/index/index.h"
    "src/mcp/schema.cpp lore/json/field.h"
    "src/mcp/schema.cpp lore/text/utf8.h"
    "src/mcp/serve.cpp lore/fs/fd.h"
    "src/mcp/server.cpp lore/json/field.h"
    "src/mcp/server.cpp lore/json/reader.h"
    "src/mcp/tool_read.cpp lore/doc/kind.h"
    "src/mcp/tool_read.cpp lore/fs/fd.h"
    "src/mcp/tool_read.cpp lore/fs/tree.h"
    "src/mcp/tool_read.cpp lore/json/field.h"
    "src/mcp/tool_read.cpp lore/search/search.h"
    "src/mcp/tool_write.cpp lore/json/field.h"
    "src/teamcli/main.cpp lore/fs/fd.h"
    "src/teamcli/main.cpp lore/store/store.h"
    "src/teamcli/main.cpp lore/teamsync/review.h"
    "src/teamcli/main.cpp lore/teamsync/team.h"
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
       header MATCHES "^lore/json/(value|dump_js)[.]h$" OR
       header MATCHES "^(lore/)?${folder}/" OR header MATCHES "^proc/" OR
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
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} front-end include problem(s)")
endif()
