# CPack: a .deb for now (AppImage, NSIS, DMG later). `cpack -G DEB` in the build directory
# writes ssdkeeper_<version>_<arch>.deb; dpkg-shlibdeps computes the library dependencies.
set(CPACK_PACKAGE_NAME "ssdkeeper")
set(CPACK_PACKAGE_VENDOR "SSD Keeper developers")
set(CPACK_PACKAGE_CONTACT "SSD Keeper developers <ssdkeeper@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop SSD manager for every vendor's drive")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Programs the features start, and the polkit agent path for pkexec.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "util-linux, fdisk, e2fsprogs, pkexec, polkitd")
# qt6-translations-l10n: Qt's own dialogs (file chooser, message box buttons) in the user's language.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "smartmontools, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Desktop SSD manager for every vendor's drive\n Drive identity, capabilities and partitions; lab drives for safe experiments;\n health, benchmarks, RAM cache, spare area, TRIM, secure erase and firmware as\n they land.")
include(CPack)
