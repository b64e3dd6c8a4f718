# CPack: a .deb for now (AppImage, NSIS, DMG later).
