# ctest `one_home`: a helper every module needs has one home, and nothing goes
# around it. In src/ and include/ (tests aside):
#   - YAML is parsed only by the record model (src/doc/): no `YAML::Load`
#     elsewhere, so that its guards (control characters, ...) protect every read;
#   - the JSON value types are named only by the json module
#     (include/lore/json/value.h): no other `using ... = nlohmann::...` and no
#     other `using Json`;
#   - test points are installed only by the testing module and the test builds:
#     no `SetHook(` outside src/testing/.
# Run as
#   cmake -DLORE_SOURCE_DIR=<checkout> -P cmake/OneHome.cmake
file(GLOB_RECURSE sources ${LORE_SOURCE_DIR}/src/*.cpp ${LORE_SOURCE_DIR}/src/*.h
     ${LORE_SOURCE_DIR}/include/*.h)
# Each rule: a pattern, the folders where it may appear (a regex on the path
# relative to the checkout), and the repair.
set(pattern0 "YAML::Load[(]")
set(home0 "src/doc/")
set(repair0 "read it through lore::doc (doc/facts.h, doc/record.h)")
set(pattern1 "using [A-Za-z_]+ = nlohmann::")
set(home1 "include/lore/json/|src/json/")
set(repair1 "name lore::Json or lore::SortedJson (json/value.h)")
set(pattern2 "using Json[ ;=]")
set(home2 "include/lore/json/|src/json/")
set(repair2 "use lore::Json (json/value.h); give another type another name")
set(pattern3 "SetHook[(]")
set(home3 "include/lore/testing/|src/testing/")
set(repair3 "call testing::Point; only test builds install a hook")
set(failures 0)
foreach(f ${sources})
  if(f MATCHES "_test[.]cpp$")
    continue()
  endif()
  file(RELATIVE_PATH rel ${LORE_SOURCE_DIR} ${f})
  file(READ ${f} text)
  string(REPLACE ";" "," text "${text}")  # a list is split at ';': keep one item per line
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  foreach(i RANGE 3)
    if(rel MATCHES "^(${home${i}})" OR NOT text MATCHES "${pattern${i}}")
      continue()
    endif()
    set(n 0)
    foreach(line IN LISTS lines)
      math(EXPR n "${n} + 1")
      if(line MATCHES "${pattern${i}}" AND NOT line MATCHES "^[ ]*//")
        message("${rel}:${n}: '${pattern${i}}' belongs in ${home${i}} only; ${repair${i}}")
        math(EXPR failures "${failures} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} line(s) go around the one home of a helper")
endif()
