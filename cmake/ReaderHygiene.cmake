# ctest `reader_hygiene`: every file lore reads is opened by the one reader in
# src/fs/ (include/lore/fs/fd.h: regular files only, opened without blocking,
# a size cap per kind, no symlink inside the store). No other code calls
# open(2) or openat2(2) itself, nor reads through std::ifstream or fopen. Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/ReaderHygiene.cmake
file(GLOB_RECURSE sources ${LORE_SOURCE_DIR}/src/*.cpp ${LORE_SOURCE_DIR}/src/*.h
     ${LORE_SOURCE_DIR}/include/*.h)
set(forbidden "::open[(]" "[^a-zA-Z0-9_:.>]open[(]" "openat2?[(]" "SYS_openat2" "std::i?fstream"
              "fopen[(]" "freopen[(]")
# The exceptions, each with its reason.
set(allowed
    # /proc files (boot time, a process's start time): the kernel's own, never a FIFO,
    # a device or a symlink; lore::sys sits below lore::fs.
    "src/sys/process.cpp"
    # /dev/null as a child's standard streams: a device by design.
    "src/proc/process.cpp")
list(JOIN forbidden "|" any)
set(failures 0)
foreach(f ${sources})
  file(RELATIVE_PATH rel ${LORE_SOURCE_DIR} ${f})
  if(rel MATCHES "^src/fs/" OR rel MATCHES "_test[.]cpp$")
    continue()
  endif()
  list(FIND allowed "${rel}" at)
  if(NOT at EQUAL -1)
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
        message("${rel}:${n}: '${pattern}' reads past lore's one reader; use fs::Open, "
                "fs::OpenBeneath or fs::ReadFile (include/lore/fs/fd.h)")
        math(EXPR failures "${failures} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} file read(s) past the one reader (src/fs/)")
endif()
