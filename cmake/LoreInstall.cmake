# What `cmake --install` puts where, and the packages CPack makes of it (docs/install.md).
#   bin/                                   lore, lore-llm, lore-team, lore-archive, lore-serve (lore
#                                          runs the other four from its own folder)
#   share/man/man1/lore.1.gz               lore(1)
#   share/bash-completion/completions/lore, share/zsh/vendor-completions/_lore
#   share/lore/claude-code/                the Claude Code plugin (and what lore init writes)
#   share/lore/.claude-plugin/             a marketplace holding that plugin
#   share/doc/lore/                        README.md and docs/
# The man page and the completions are printed by the built lore from its command table, so they
# are never written twice.
include(GNUInstallDirs)

set(LORE_GEN ${PROJECT_BINARY_DIR}/share)
add_custom_command(
  OUTPUT ${LORE_GEN}/lore.1.gz ${LORE_GEN}/lore.bash ${LORE_GEN}/_lore
  COMMAND ${CMAKE_COMMAND} -E make_directory ${LORE_GEN}
  COMMAND sh -c "\"$1\" help --man | gzip -9n > \"$2/lore.1.gz\"" sh $<TARGET_FILE:lore> ${LORE_GEN}
  COMMAND sh -c "\"$1\" completions bash > \"$2/lore.bash\"" sh $<TARGET_FILE:lore> ${LORE_GEN}
  COMMAND sh -c "\"$1\" completions zsh > \"$2/_lore\"" sh $<TARGET_FILE:lore> ${LORE_GEN}
  DEPENDS lore
  COMMENT "Generating lore(1) and the shell completions from the command table"
  VERBATIM)
add_custom_target(lore_manual ALL DEPENDS ${LORE_GEN}/lore.1.gz ${LORE_GEN}/lore.bash ${LORE_GEN}/_lore)

set(LORE_PROGRAMS lore)
foreach(t lore-llm lore-team lore-archive lore-serve)
  if(TARGET ${t})
    list(APPEND LORE_PROGRAMS ${t})
  endif()
endforeach()
install(TARGETS ${LORE_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${LORE_GEN}/lore.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${LORE_GEN}/lore.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME lore)
install(FILES ${LORE_GEN}/_lore DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
# share/lore/ is a Claude Code plugin marketplace: `claude plugin marketplace add /usr/share/lore`,
# then `claude plugin install lore@lore` (docs/agents.md). The plugin is share/lore/claude-code/.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/share/claude-code DESTINATION ${CMAKE_INSTALL_DATADIR}/lore)
install(FILES ${PROJECT_SOURCE_DIR}/share/installed-marketplace.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lore/.claude-plugin RENAME marketplace.json)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING
        PATTERN "*.md")

# Packages: `cpack` in a release build folder makes lore_<version>_amd64.deb (installed under
# /usr, its library dependencies found by dpkg-shlibdeps) and lore-<version>-linux-<arch>.tar.gz
# (the same tree, to unpack anywhere: bin/ holds the five programs).
set(CPACK_PACKAGE_NAME lore)
set(CPACK_PACKAGE_VENDOR "lore")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "durable, reviewable memory for AI coding agents")
set(CPACK_PACKAGE_DESCRIPTION
    "lore gives every git repository a local memory for coding agents: an append-only log,\n"
    "proposals a person reviews, learnings, and Markdown records consolidated from the agents'\n"
    "sessions, reached through hooks, a search and an MCP server.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGE_CONTACT "lore developers <lore@localhost>")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The completions under /usr/share/bash-completion/completions/ are read by bash-completion.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS bash-completion)
set(CPACK_DEBIAN_PACKAGE_RELEASE "")
string(TOLOWER "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}" LORE_PLATFORM)
set(CPACK_ARCHIVE_FILE_NAME "lore-${PROJECT_VERSION}-${LORE_PLATFORM}")
set(CPACK_PACKAGE_FILE_NAME "lore-${PROJECT_VERSION}-${LORE_PLATFORM}")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
include(CPack)
