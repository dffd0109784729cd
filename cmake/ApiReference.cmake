# The API reference (Doxygen HTML) of the public headers: `cmake --build build --target docs`, only when Doxygen is
# found (scripts/setup-deps.sh installs it). Included from core/CMakeLists.txt after REDLOCK_CORE_PUBLIC_HEADERS,
# so the reference covers exactly what libredlock-core-dev installs. Not part of ALL: the api-reference test
# (docs/CMakeLists.txt) builds it, so a public header with an undocumented member fails the suite (WARN_AS_ERROR)
# without breaking the build.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
    message(STATUS "Doxygen not found: no `docs` target (the API reference)")
    return()
endif()
set(REDLOCK_API_OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/api)
set(REDLOCK_API_HEADERS)
foreach(header IN LISTS REDLOCK_CORE_PUBLIC_HEADERS)
    list(APPEND REDLOCK_API_HEADERS ${CMAKE_CURRENT_SOURCE_DIR}/${header})
endforeach()
list(JOIN REDLOCK_API_HEADERS " " REDLOCK_API_INPUT)
# The front page and the page it links to (both also installed as Markdown by libredlock-core-dev).
string(APPEND REDLOCK_API_INPUT " ${PROJECT_SOURCE_DIR}/docs/embedding.md ${PROJECT_SOURCE_DIR}/docs/fencing.md")
configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${CMAKE_CURRENT_BINARY_DIR}/Doxyfile @ONLY)
add_custom_command(OUTPUT ${REDLOCK_API_OUTPUT}/html/index.html
                   COMMAND ${CMAKE_COMMAND} -E rm -rf ${REDLOCK_API_OUTPUT}
                   COMMAND Doxygen::doxygen ${CMAKE_CURRENT_BINARY_DIR}/Doxyfile
                   DEPENDS ${REDLOCK_API_HEADERS} ${PROJECT_SOURCE_DIR}/docs/embedding.md ${PROJECT_SOURCE_DIR}/docs/fencing.md
                           ${CMAKE_CURRENT_BINARY_DIR}/Doxyfile
                   COMMENT "Generating the API reference (Doxygen, warnings are errors)"
                   VERBATIM)
add_custom_target(docs DEPENDS ${REDLOCK_API_OUTPUT}/html/index.html)
# Installed with the headers when built (scripts/package.sh builds `docs` before cpack).
install(DIRECTORY ${REDLOCK_API_OUTPUT}/html/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libredlock-core-dev/api
        COMPONENT libredlock-core-dev OPTIONAL)
