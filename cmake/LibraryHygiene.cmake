# ctest `library_hygiene`: the library never prints, exits, aborts, forks,
# execs or reads a test-only environment variable; only the executables'
# folders (src/cli, src/proc, src/llmcli, src/teamcli, src/archivecli) may. Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/LibraryHygiene.cmake
file(GLOB_RECURSE sources ${LORE_SOURCE_DIR}/src/*.cpp ${LORE_SOURCE_DIR}/src/*.h
     ${LORE_SOURCE_DIR}/include/*.h)
set(forbidden
    "std::cout" "std::cerr" "std::clog" "[^a-z_]printf[(]" "[^a-z_]puts[(]" "fprintf[(]std(out|err)"
    "[^a-z_]exit[(]" "[^a-z]_exit[(]" "[^a-z_]abort[(]" "[^a-z_]fork[(]" "vfork[(]" "exec[lv]p?e?[(]"
    "posix_spawn" "[^a-z_]system[(]" "popen[(]" "getenv[(]\"LORE_TEST")
list(JOIN forbidden "|" any)
set(failures 0)
foreach(f ${sources})
  if(f MATCHES "/src/(cli|proc|llmcli|teamcli|archivecli)/" OR f MATCHES "_test[.]cpp$")
    continue()
  endif()
  file(READ ${f} text)
  if(NOT text MATCHES "${any}")
    continue()
  endif()
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
    foreach(pattern ${forbidden})
      if(line MATCHES "${pattern}")
        file(RELATIVE_PATH rel ${LORE_SOURCE_DIR} ${f})
        message("${rel}:${n}: the library must not use '${pattern}'; move it to src/cli/ or src/proc/")
        math(EXPR failures "${failures} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} forbidden call(s) in the library")
endif()
