# lore search's WordNet tables, generated at build time from WordNet's data files (Debian
# wordnet-base, installed by scripts/install-deps.sh) by tools/wordnet_table.cpp and compiled
# into lore_core: nothing is parsed at run time. The synonym table (search/expansion.h) and the
# irregular verb forms (index/tokenizer.h, from verb.exc). Without the data files both are empty:
# the synonym stages find nothing and irregular forms are only stemmed.
set(LORE_WORDNET_DIR /usr/share/wordnet CACHE PATH "WordNet 3.0 database files (index.*, data.*)")
add_executable(wordnet_table ${PROJECT_SOURCE_DIR}/tools/wordnet_table.cpp)
target_include_directories(wordnet_table PRIVATE ${STEMMER_INCLUDE})
target_link_libraries(wordnet_table PRIVATE ${STEMMER_STATIC})
set(LORE_SYNONYM_TABLE ${PROJECT_BINARY_DIR}/generated/synonym_table.cpp)
set(LORE_IRREGULAR_TABLE ${PROJECT_BINARY_DIR}/generated/irregular_table.cpp)
set(LORE_WORDNET_FILES)
foreach(pos noun verb adj adv)
  foreach(kind index data)
    if(EXISTS ${LORE_WORDNET_DIR}/${kind}.${pos})
      list(APPEND LORE_WORDNET_FILES ${LORE_WORDNET_DIR}/${kind}.${pos})
    endif()
  endforeach()
endforeach()
if(EXISTS ${LORE_WORDNET_DIR}/verb.exc)
  list(APPEND LORE_WORDNET_FILES ${LORE_WORDNET_DIR}/verb.exc)
endif()
if(NOT LORE_WORDNET_FILES)
  message(WARNING "no WordNet data in ${LORE_WORDNET_DIR} (Debian wordnet-base): lore search "
                  "is built without synonyms")
endif()
add_custom_command(OUTPUT ${LORE_SYNONYM_TABLE} ${LORE_IRREGULAR_TABLE}
  COMMAND wordnet_table ${LORE_WORDNET_DIR} ${LORE_SYNONYM_TABLE} ${LORE_IRREGULAR_TABLE}
  DEPENDS wordnet_table ${LORE_WORDNET_FILES}
  COMMENT "Generating the synonym and irregular verb tables from WordNet" VERBATIM)
target_sources(lore_core PRIVATE ${LORE_SYNONYM_TABLE} ${LORE_IRREGULAR_TABLE})
set_source_files_properties(${LORE_SYNONYM_TABLE} ${LORE_IRREGULAR_TABLE}
                            PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
