# The line rules of the sources: one scanner, three tables. Each rule is a
# pattern that may appear only in its home (a regex on the path relative to
# the checkout) and the repair a failure names. Tests (*_test.cpp) are never
# scanned, nor comment lines. Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -DLORE_RULES=<table> -P cmake/SourceRules.cmake
# with one of the tables, each a ctest of its own:
#   library  (ctest `library_hygiene`): the library never prints, exits, aborts,
#            forks, execs or reads a test-only environment variable; only the
#            executables' folders may.
#   one_home (ctest `one_home`): a helper every module needs has one home, and
#            nothing goes around it.
#   reader   (ctest `reader_hygiene`): every file lore reads is opened by the
#            one reader in src/fs/ (include/lore/fs/fd.h: regular files only,
#            opened without blocking, a size cap per kind, no symlink inside the
#            store): no other open(2), openat2(2), std::ifstream or fopen.
set(patterns)
set(homes)
set(repairs)
# (No ';' in any of the three: they are list items.)
macro(rule pattern home repair)
  list(APPEND patterns "${pattern}")
  list(APPEND homes "${home}")
  list(APPEND repairs "${repair}")
endmacro()

if(LORE_RULES STREQUAL "library")
  set(executables "src/(cli|proc|llmcli|teamcli|archivecli|servecli)/")
  set(repair "the library must not print, exit, fork or read test variables: move it to src/cli/ or src/proc/")
  foreach(p "std::cout" "std::cerr" "std::clog" "[^a-z_]printf[(]" "[^a-z_]puts[(]"
            "fprintf[(]std(out|err)" "[^a-z_]exit[(]" "[^a-z]_exit[(]" "[^a-z_]abort[(]"
            "[^a-z_]fork[(]" "vfork[(]" "exec[lv]p?e?[(]" "posix_spawn" "[^a-z_]system[(]"
            "popen[(]" "getenv[(]\"LORE_TEST")
    rule("${p}" "${executables}" "${repair}")
  endforeach()
elseif(LORE_RULES STREQUAL "one_home")
  rule("YAML::Load[(]" "src/doc/"
       "YAML is parsed only by the record model, behind its guards: read it through lore::doc (doc/facts.h, doc/record.h)")
  rule("using [A-Za-z_]+ = nlohmann::" "include/lore/json/|src/json/"
       "the JSON value types are named only by the json module: name lore::Json or lore::SortedJson (json/value.h)")
  rule("using Json[ ,=]" "include/lore/json/|src/json/"
       "use lore::Json (json/value.h), and give another type another name")
  rule("SetHook[(]" "include/lore/testing/|src/testing/"
       "test points are installed only by the testing module: call testing::Point (only test builds install a hook)")
  rule("1099511628211|100000001[bB]3" "src/text/hash[.]h$"
       "FNV-1a has one home, whose offset basis stored values depend on: call text::Fnv1a64 or text::Fnv1aMix (src/text/hash.h)")
  # ('.' stands for the backslash of "\n": a macro argument cannot carry one.)
  rule("find[(]\".n---.n\"" "src/doc/"
       "frontmatter is split only by the record model: call doc::SplitFrontmatter, or doc::PlainBodyStart to show a text without it (src/doc/frontmatter.h)")
  # (The MCP tools are a front end: cmake/FrontEndHygiene.cmake keeps them to lore/app/.)
  rule("\"(memory/summary|okf/index)[.]md\"|\"(raw|events|learnings|learnings-archive|proposals|proposals-archive|proposals[.]rejected)[.]jsonl\"|\"config[.]toml\""
       "include/lore/store/layout[.]h$|src/mcp/tool_(read|status)[.]cpp$"
       "a store's file names are written once: use the constants of include/lore/store/layout.h (or the store::Store accessors)")
  # A newline searched for from a moving position is a hand-written line loop. The files named
  # here need what text::Lines does not give: each line's byte offset (the streamed and
  # appended logs, the session log's head, the frontmatter's line numbers, config.toml's
  # edits in place, the bullet cap's erasing), or a stop at an unterminated last line; the
  # front ends include no library header but lore/app/'s (cmake/FrontEndHygiene.cmake).
  rule("find[(]'.n', (pos|start|at)[)]"
       "src/text/|src/search/|src/recall/|src/log/line_stream[.]cpp$|src/activity/(session_log|episodes|clean)[.]cpp$|src/config/config[.]cpp$|src/doc/frontmatter[.]cpp$|src/teamsync/lines[.]cpp$|src/consolidate/rules_engine[.]cpp$|src/cli/|src/mcp/"
       "iterate over lines with text::Lines (src/text/lines.h)")
elseif(LORE_RULES STREQUAL "reader")
  # The exceptions, each with its reason: /proc files (boot time, a process's start time) are the
  # kernel's own, never a FIFO, a device or a symlink, and lore::sys sits below lore::fs
  # (src/sys/process.cpp); /dev/null as a child's standard streams is a device by design
  # (src/proc/process.cpp).
  set(reader "src/fs/|src/sys/process[.]cpp$|src/proc/process[.]cpp$")
  set(repair "it reads past lore's one reader: use fs::Open, fs::OpenBeneath or fs::ReadFile (include/lore/fs/fd.h)")
  foreach(p "::open[(]" "[^a-zA-Z0-9_:.>]open[(]" "openat2?[(]" "SYS_openat2" "std::i?fstream"
            "fopen[(]" "freopen[(]" "opendir[(]")
    rule("${p}" "${reader}" "${repair}")
  endforeach()
else()
  message(FATAL_ERROR "cmake/SourceRules.cmake: set -DLORE_RULES=library|one_home|reader")
endif()

list(LENGTH patterns count)
math(EXPR last "${count} - 1")
list(JOIN patterns "|" any)
file(GLOB_RECURSE sources ${LORE_SOURCE_DIR}/src/*.cpp ${LORE_SOURCE_DIR}/src/*.h
     ${LORE_SOURCE_DIR}/include/*.h)
list(SORT sources)
set(failures 0)
foreach(f ${sources})
  if(f MATCHES "_test[.]cpp$")
    continue()
  endif()
  file(READ ${f} text)
  if(NOT text MATCHES "${any}")
    continue()
  endif()
  file(RELATIVE_PATH rel ${LORE_SOURCE_DIR} ${f})
  string(REPLACE ";" "," text "${text}")  # a list is split at ';': keep one item per line
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(NOT line MATCHES "${any}" OR line MATCHES "^[ ]*//")
      continue()
    endif()
    foreach(i RANGE ${last})
      list(GET patterns ${i} pattern)
      list(GET homes ${i} home)
      if(line MATCHES "${pattern}" AND NOT rel MATCHES "^(${home})")
        list(GET repairs ${i} repair)
        message("${rel}:${n}: '${pattern}' belongs in ${home} only: ${repair}")
        math(EXPR failures "${failures} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} line(s) break the ${LORE_RULES} rules (cmake/SourceRules.cmake)")
endif()
