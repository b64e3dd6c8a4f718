# Man pages ssdkeeperctl(1) and ssdkeeper(1), and the bash and zsh completions of
# ssdkeeperctl, written at build time from the programs' own --help by scripts/gen-cli-docs
# (with the prose of resources/man/*.1.in and resources/completion/*.in): a subcommand or
# option added to the CLI is in all of them at the next build. Installed with the .deb;
# tests/format/check-man-completion.sh checks them.
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(SSDK_CLI_DOCS_DIR ${CMAKE_BINARY_DIR}/cli-docs)
set(_ssdk_docs_metainfo
    ${PROJECT_SOURCE_DIR}/resources/desktop/io.github.ssdkeeper.SSDKeeper.metainfo.xml)
set(_ssdk_docs_outputs
    ${SSDK_CLI_DOCS_DIR}/ssdkeeperctl.1 ${SSDK_CLI_DOCS_DIR}/ssdkeeperctl.1.gz
    ${SSDK_CLI_DOCS_DIR}/ssdkeeperctl.bash ${SSDK_CLI_DOCS_DIR}/_ssdkeeperctl)
set(_ssdk_docs_gui_args)
set(_ssdk_docs_programs ssdkeeperctl)
if(SSDK_BUILD_GUI)
  list(APPEND _ssdk_docs_outputs
       ${SSDK_CLI_DOCS_DIR}/ssdkeeper.1 ${SSDK_CLI_DOCS_DIR}/ssdkeeper.1.gz)
  set(_ssdk_docs_gui_args --gui $<TARGET_FILE:ssdkeeper>)
  list(APPEND _ssdk_docs_programs ssdkeeper)
endif()

add_custom_command(
  OUTPUT ${_ssdk_docs_outputs}
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/scripts/gen-cli-docs
          --ctl $<TARGET_FILE:ssdkeeperctl> ${_ssdk_docs_gui_args}
          --metainfo ${_ssdk_docs_metainfo} --version ${PROJECT_VERSION}
          --templates ${PROJECT_SOURCE_DIR}/resources --out ${SSDK_CLI_DOCS_DIR}
  DEPENDS ${_ssdk_docs_programs} ${PROJECT_SOURCE_DIR}/scripts/gen-cli-docs
          ${_ssdk_docs_metainfo}
          ${PROJECT_SOURCE_DIR}/resources/man/ssdkeeperctl.1.in
          ${PROJECT_SOURCE_DIR}/resources/man/ssdkeeper.1.in
          ${PROJECT_SOURCE_DIR}/resources/completion/ssdkeeperctl.bash.in
          ${PROJECT_SOURCE_DIR}/resources/completion/_ssdkeeperctl.zsh.in
  COMMENT "Writing man pages and shell completions from --help"
  VERBATIM)
add_custom_target(ssdk-cli-docs ALL DEPENDS ${_ssdk_docs_outputs})

install(FILES ${SSDK_CLI_DOCS_DIR}/ssdkeeperctl.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
if(SSDK_BUILD_GUI)
  install(FILES ${SSDK_CLI_DOCS_DIR}/ssdkeeper.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${SSDK_CLI_DOCS_DIR}/ssdkeeperctl.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME ssdkeeperctl)
install(FILES ${SSDK_CLI_DOCS_DIR}/_ssdkeeperctl
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
