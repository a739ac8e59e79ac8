# ctest `format`: every C++ source and header of the project is as clang-format
# leaves it (the style is .clang-format's). Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> [-DLORE_CLANG_FORMAT=<program>] -P cmake/Format.cmake
# A failure names each file and the command that formats it. scripts/install-deps.sh installs
# Debian's clang-format (14 on bookworm); another version may wrap a line differently, so a
# machine without it fails here with the package to install rather than passing unchecked.
get_filename_component(root "${LORE_SOURCE_DIR}" ABSOLUTE)
if(NOT LORE_CLANG_FORMAT)
  find_program(LORE_CLANG_FORMAT NAMES clang-format clang-format-14)
endif()
if(NOT LORE_CLANG_FORMAT)
  message(FATAL_ERROR "cmake/Format.cmake: no clang-format; install it: apt-get install clang-format")
endif()
set(files)
foreach(dir src include tests/e2e tests/support tests/faults fuzz bench tools)
  file(GLOB_RECURSE found ${root}/${dir}/*.cpp ${root}/${dir}/*.h ${root}/${dir}/*.cc)
  list(FILTER found EXCLUDE REGEX "/node_modules/")
  list(APPEND files ${found})
endforeach()
list(LENGTH files count)
if(count LESS 100)
  message(FATAL_ERROR "cmake/Format.cmake: only ${count} sources found under ${root}; is LORE_SOURCE_DIR the checkout?")
endif()
execute_process(COMMAND ${LORE_CLANG_FORMAT} --style=file --dry-run --Werror ${files}
                WORKING_DIRECTORY ${root} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "(^|\n)[^\n:]+:[0-9]+:[0-9]+: (error|warning)" where "${err}")
  set(bad)
  foreach(w ${where})
    string(REGEX REPLACE "^\n?([^\n:]+):[0-9]+:[0-9]+: (error|warning)$" "\\1" f "${w}")
    file(RELATIVE_PATH f ${root} ${f})
    list(APPEND bad ${f})
  endforeach()
  list(REMOVE_DUPLICATES bad)
  if(NOT bad)
    message(FATAL_ERROR "cmake/Format.cmake: ${LORE_CLANG_FORMAT} failed (${rc}): ${err}")
  endif()
  list(JOIN bad " " names)
  list(LENGTH bad n)
  message(FATAL_ERROR "cmake/Format.cmake: ${n} file(s) not formatted: ${names}; "
                      "format them: clang-format -i ${names}")
endif()
message("cmake/Format.cmake: ${count} sources formatted")
