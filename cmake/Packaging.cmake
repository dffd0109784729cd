# The Debian package (scripts/package.sh runs `cpack -G DEB`): both executables, the desktop integration,
# the man page and the docs. Library dependencies come from dpkg-shlibdeps; what Qt loads at run time
# (the platform plugins) is named here, since no ELF dependency shows it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME redlock-console)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Redlock Console maintainers <redlock-console@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "console and CLI for Redlock distributed locks on Redis")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "A desktop console for operators of Redlock deployments: it connects to all N independent Redis\n"
    " masters and shows, for every lock, its holder, the TTL on each node, whether it really has a quorum\n"
    " and how long it stays valid. It releases stuck locks safely (per-node preview, audit log), restarts\n"
    " nodes with a delay longer than the largest TTL and audits the nodes for what breaks Redlock.\n"
    " .\n"
    " Also contains redlock, a command line tool for the same operations. redis-server is only needed\n"
    " for the built-in demo cluster (redlock-console --demo, redlock cluster).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # redlock-console_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6sql6-sqlite") # the SQLite driver is a plugin: shlibdeps cannot see it
# Fonts with Chinese glyphs for --lang zh_CN; Qt's own dialog strings in Chinese.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk | fonts-wqy-microhei, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-server")
set(CPACK_STRIP_FILES ON)
include(CPack)
