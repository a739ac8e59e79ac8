# The libFuzzer configuration (LORE_FUZZ=ON, clang only; scripts/fuzz.sh drives it). The
# sanitizer build (scripts/build.sh asan) turns it on beside the tests: one clang tree for both.
#   fuzz/<name>_fuzz.cpp  -> one fuzzer executable each, `<name>_fuzz`, all built by `lore_fuzzers`
# Everything in this build, lore_core included, carries the sanitizers the fuzzers need: coverage
# for libFuzzer, ASan, and UBSan (float-cast-overflow too) turned into an abort on any report.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "LORE_FUZZ needs clang (-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang)")
endif()

set(LORE_FUZZ_SANITIZERS -fsanitize=address,undefined -fsanitize=float-cast-overflow
                         -fno-sanitize-recover=all)
# Line tables only: enough for the reports' stack traces, and a shorter build.
add_compile_options(-fsanitize=fuzzer-no-link ${LORE_FUZZ_SANITIZERS} -fno-omit-frame-pointer -O1
                    -gline-tables-only)
add_link_options(${LORE_FUZZ_SANITIZERS})

file(GLOB LORE_FUZZ_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/fuzz/*_fuzz.cpp)
add_custom_target(lore_fuzzers)
foreach(f ${LORE_FUZZ_SRC})
  get_filename_component(name ${f} NAME_WE)
  add_executable(${name} ${f})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/fuzz
                             ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${name} PRIVATE lore_core)
  if(name STREQUAL "archive_fuzz")
    target_link_libraries(${name} PRIVATE lore_archive)  # and so libarchive
  endif()
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  add_dependencies(lore_fuzzers ${name})
endforeach()
