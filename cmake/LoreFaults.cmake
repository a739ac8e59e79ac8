# The fault-injection shim (tests/faults/, docs/testing.md): an LD_PRELOAD library that makes the
# n-th write, fsync, rename or open of a lore process fail. It is never instrumented, even in the
# sanitizer build: it only forwards to libc (or to the sanitizer's own interceptors).
if(NOT LORE_TESTS)
  return()
endif()
file(GLOB LORE_FAULT_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/faults/*.c)
add_library(lore_fault SHARED ${LORE_FAULT_SRC})
set_property(TARGET lore_fault PROPERTY COMPILE_OPTIONS -Wall -Wextra -fvisibility=default)
set_property(TARGET lore_fault PROPERTY LINK_OPTIONS "")
set_property(TARGET lore_fault PROPERTY C_STANDARD 11)
target_link_libraries(lore_fault PRIVATE ${CMAKE_DL_LIBS})

if(TARGET lore_e2e_tests)
  target_compile_definitions(lore_e2e_tests PRIVATE LORE_FAULT_SHIM="$<TARGET_FILE:lore_fault>")
  if(LORE_SANITIZE)
    target_compile_definitions(lore_e2e_tests PRIVATE LORE_SANITIZER_BUILD=1)
  endif()
  add_dependencies(lore_e2e_tests lore_fault)
endif()
