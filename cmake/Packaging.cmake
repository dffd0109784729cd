# The Debian packages (scripts/package.sh runs `cpack -G DEB`), one per install component:
#   redlock-console       the GUI, its desktop integration, man page and docs
#   redlock               the CLI (with `redlock exporter`), its man page, the Prometheus alerting rules
#   libredlock-core0      libredlock-core.so.0 (docs/embedding.md), for services that embed the core
#   libredlock-core-dev   its headers, the .so link, the CMake package and redlock-core.pc, the example
# The executables link core statically (its private layers are not in the shared library), so neither needs
# libredlock-core0. Library dependencies come from dpkg-shlibdeps; what Qt loads at run time (the platform
# plugins, the SQLite driver) is named here, since no ELF dependency shows it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME redlock-console)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL redlock libredlock-core0 libredlock-core-dev)
if(REDLOCK_BUILD_GUI)
    list(APPEND CPACK_COMPONENTS_ALL redlock-console)
endif()
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# The packages' Maintainer field: whoever builds and ships them (`scripts/package.sh -DREDLOCK_PACKAGE_CONTACT=...` or
# the cache). The default names no one who can be written to, on purpose: a package for others names its maintainer.
set(REDLOCK_PACKAGE_CONTACT "Redlock Console maintainers <redlock-console@localhost>"
    CACHE STRING "The Debian packages' Maintainer field: \"Name <address>\"")
if(NOT REDLOCK_PACKAGE_CONTACT MATCHES "^[^<>]+ <[^<> ]+@[^<> ]+>$")
    message(FATAL_ERROR "REDLOCK_PACKAGE_CONTACT must read \"Name <address>\", not \"${REDLOCK_PACKAGE_CONTACT}\"")
endif()
set(CPACK_PACKAGE_CONTACT "${REDLOCK_PACKAGE_CONTACT}")
# Each package's description: its first line is the synopsis. The summary is CPack's own default, the one value it
# does not put in front of every package's description. One string per line, joined, so no list separator (';')
# ends up in the control file.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
# Description lines stay under 80 columns (lintian: extended-description-line-too-long).
string(JOIN "\n" CPACK_DEBIAN_REDLOCK-CONSOLE_DESCRIPTION
    "console for Redlock distributed locks on Redis"
    "A desktop console for operators of Redlock deployments: it connects to all N"
    "independent Redis masters and shows, for every lock, its holder, the TTL on"
    "each node, whether it really has a quorum and how long it stays valid. It"
    "releases stuck locks safely (per-node preview, audit log), restarts nodes"
    "with a delay longer than the largest TTL and audits the nodes for what"
    "breaks Redlock."
    ""
    "The command line tool for the same operations is in the redlock package."
    "redis-server is only needed for the built-in demo cluster"
    "(redlock-console --demo).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # <package>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6sql6-sqlite") # the SQLite driver is a plugin: shlibdeps cannot see it
# Fonts with Chinese glyphs for --lang zh_CN; Qt's own dialog strings in Chinese.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk | fonts-wqy-microhei, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-server, libqt6sql6-psql") # psql: --journal postgresql://... (a plugin)

set(CPACK_DEBIAN_REDLOCK-CONSOLE_PACKAGE_NAME redlock-console)
set(CPACK_DEBIAN_REDLOCK-CONSOLE_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_REDLOCK-CONSOLE_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}")
set(CPACK_DEBIAN_REDLOCK-CONSOLE_PACKAGE_RECOMMENDS "redlock (= ${PROJECT_VERSION}), ${CPACK_DEBIAN_PACKAGE_RECOMMENDS}")

set(CPACK_DEBIAN_REDLOCK_PACKAGE_NAME redlock)
set(CPACK_DEBIAN_REDLOCK_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_REDLOCK_PACKAGE_SECTION net)
string(JOIN "\n" CPACK_DEBIAN_REDLOCK_DESCRIPTION
    "command line tool and Prometheus exporter for Redlock distributed locks"
    "redlock acquires, extends and releases Redlock locks over N independent Redis"
    "masters, inspects and watches them (per-node holders and TTLs, quorum,"
    "validity), audits the nodes for what breaks Redlock, releases stuck locks and"
    "restarts nodes safely. redlock exporter serves Prometheus metrics; alerting"
    "rules for them are in /usr/share/redlock/prometheus. redis-server is only"
    "needed for redlock cluster.")
set(CPACK_DEBIAN_REDLOCK_PACKAGE_DEPENDS "libqt6sql6-sqlite") # the history journal's driver is a plugin
set(CPACK_DEBIAN_REDLOCK_PACKAGE_RECOMMENDS "")
set(CPACK_DEBIAN_REDLOCK_PACKAGE_SUGGESTS "redis-server, prometheus, libqt6sql6-psql")

set(CPACK_DEBIAN_LIBREDLOCK-CORE0_PACKAGE_NAME libredlock-core0)
set(CPACK_DEBIAN_LIBREDLOCK-CORE0_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_LIBREDLOCK-CORE0_PACKAGE_SECTION libs)
string(JOIN "\n" CPACK_DEBIAN_LIBREDLOCK-CORE0_DESCRIPTION
    "Redlock distributed locks for Qt 6 services (shared library)"
    "Acquire, extend, release and keep Redlock locks over N independent Redis"
    "masters, with fencing tokens and per-node outcomes. This package holds the"
    "shared library.")
set(CPACK_DEBIAN_LIBREDLOCK-CORE0_PACKAGE_DEPENDS "") # all from dpkg-shlibdeps
set(CPACK_DEBIAN_LIBREDLOCK-CORE0_PACKAGE_RECOMMENDS "")
set(CPACK_DEBIAN_LIBREDLOCK-CORE0_PACKAGE_SUGGESTS "")
# shlibs for libredlock-core0 (the other packages hold no shared library, so none for them)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=") # the ABI holds within one SONAME
# dpkg's ldconfig trigger, as Debian's library packages have it (lintian: lacks-ldconfig-trigger). CPack still
# writes a postinst/postrm that call ldconfig: redundant, explained in the package's lintian overrides.
configure_file(${PROJECT_SOURCE_DIR}/resources/debian/libredlock-core0.triggers
               ${PROJECT_BINARY_DIR}/debian/libredlock-core0/triggers COPYONLY)
set(CPACK_DEBIAN_LIBREDLOCK-CORE0_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/debian/libredlock-core0/triggers)

set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_PACKAGE_NAME libredlock-core-dev)
set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_PACKAGE_SECTION libdevel)
string(JOIN "\n" CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_DESCRIPTION
    "Redlock distributed locks for Qt 6 services (development files)"
    "Headers, the CMake package (find_package(RedlockCore), Redlock::Core),"
    "redlock-core.pc and an example service for libredlock-core.")
# The headers include Qt's; redlock-core.pc names hiredis in Requires.private, which pkg-config reads for --cflags.
set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_PACKAGE_DEPENDS
    "libredlock-core0 (= ${PROJECT_VERSION}), qt6-base-dev (>= 6.4), libhiredis-dev")
set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_PACKAGE_RECOMMENDS "cmake (>= 3.22) | pkg-config")
set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_PACKAGE_SUGGESTS "redlock")
set(CPACK_DEBIAN_LIBREDLOCK-CORE-DEV_PACKAGE_SHLIBDEPS OFF) # no executable code, only the .so link
set(CPACK_STRIP_FILES ON)

# What Debian policy asks of every package's doc folder: `copyright` (machine-readable, the LICENSE's text) and,
# the packages being native, a Debian `changelog.gz` (gzip -9n); and lintian's overrides for the tags that remain,
# each with the reason beside it (resources/debian/<package>.lintian-overrides; CONTRIBUTING.md, Packaging).
configure_file(${PROJECT_SOURCE_DIR}/resources/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.gz
                   COMMAND sh -c "gzip -9n -c changelog > changelog.gz"
                   DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog
                   WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/debian
                   VERBATIM)
add_custom_target(redlock_debian_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.gz)
foreach(component IN LISTS CPACK_COMPONENTS_ALL)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/copyright ${PROJECT_BINARY_DIR}/debian/changelog.gz
            DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${component} COMPONENT ${component})
    if(EXISTS ${PROJECT_SOURCE_DIR}/resources/debian/${component}.lintian-overrides)
        install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/${component}.lintian-overrides
                DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME ${component} COMPONENT ${component})
    endif()
endforeach()
include(CPack)
