# The GUI's translations: translations/ssdkeeper_<lang>.ts, compiled by lrelease into .qm files
# that are embedded as resources under :/i18n in each executable that shows them (ssdkeeper and
# the GUI test of the translations), so the program and the .deb carry them with no install
# step; app/i18n.cpp loads them. Embedding them in the static ssdk_app instead would make every
# target linking it need Qt's imported targets in scope.
#
# Strings come from app/ (tr()) and core/ (ssdk::trText markers, core/base/translate.h; lupdate
# reads them as QCoreApplication::translate). `cmake --build build/release --target
# update_translations` refreshes every .ts from the sources (docs/translating.md);
# tests/format/check-translations.py fails while a .ts is out of step with them.
find_package(Qt6 6.4 REQUIRED COMPONENTS LinguistTools)

# Cached so that tests/format (another directory, without Qt's imported targets) runs the same
# lupdate over the same inputs with the same options as the update target.
file(GLOB SSDK_TS_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/translations/ssdkeeper_*.ts)
set(SSDK_TS_FILES ${SSDK_TS_FILES} CACHE INTERNAL "the translations, translations/*.ts")
get_target_property(SSDK_LUPDATE Qt6::lupdate IMPORTED_LOCATION)
set(SSDK_LUPDATE ${SSDK_LUPDATE} CACHE INTERNAL "Qt's lupdate")
set(SSDK_LUPDATE_OPTIONS
    -extensions cpp,h -locations none -no-obsolete -tr-function-alias translate+=trText
    -I ${PROJECT_SOURCE_DIR}
    CACHE INTERNAL "lupdate's options for translations/*.ts")
set(SSDK_LUPDATE_INPUTS ${PROJECT_SOURCE_DIR}/app ${PROJECT_SOURCE_DIR}/core
    CACHE INTERNAL "the directories lupdate reads")

# Compiles the .ts files and embeds the .qm files in the executable `target` under :/i18n (one
# target per directory: the .qm files are written to that directory's binary dir).
function(ssdk_add_translations target)
  qt_add_lrelease(${target} TS_FILES ${SSDK_TS_FILES} QM_FILES_OUTPUT_VARIABLE qm_files
                  OPTIONS -silent)
  qt_add_resources(${target} ssdk_translations PREFIX /i18n BASE ${CMAKE_CURRENT_BINARY_DIR}
                   FILES ${qm_files})
endfunction()

# Included again by tests/gui for its own copy of the .qm files; one update target is enough.
# ssdkeeper_en.ts holds only the English plural forms of the %n strings (lupdate -pluralonly):
# the sources are English, but "%n partitions" needs "1 partition".
if(NOT TARGET update_translations)
  set(other_ts ${SSDK_TS_FILES})
  list(FILTER other_ts EXCLUDE REGEX "_en\\.ts$")
  add_custom_target(update_translations
    COMMAND Qt6::lupdate ${SSDK_LUPDATE_OPTIONS} ${SSDK_LUPDATE_INPUTS} -ts ${other_ts}
    COMMAND Qt6::lupdate ${SSDK_LUPDATE_OPTIONS} -pluralonly ${SSDK_LUPDATE_INPUTS}
            -ts ${PROJECT_SOURCE_DIR}/translations/ssdkeeper_en.ts
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Refreshing translations/*.ts from app/ and core/"
    VERBATIM)
endif()
