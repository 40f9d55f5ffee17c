# libmtok: the core and the C API, as a shared library that exports only the
# public C and C++ API (MTOK_API, cpp/include/mtok/export.h; cmake/mtok.map
# keeps the standard library's template instances out of the dynamic symbol
# table too) and as a static library, from one set of objects.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(mtok_objects OBJECT ${MTOK_CORE_SOURCES} ${MTOK_CAPI_SOURCES})
target_include_directories(mtok_objects
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/cpp/include>
  PRIVATE ${PROJECT_SOURCE_DIR}/cpp/src)
target_compile_definitions(mtok_objects PRIVATE MTOK_VERSION_STRING="${PROJECT_VERSION}")
set_target_properties(mtok_objects PROPERTIES POSITION_INDEPENDENT_CODE ON
                      CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(mtok_objects PRIVATE ${MTOK_WARNINGS} ${MTOK_OPTIMIZE})
target_link_libraries(mtok_objects PUBLIC Threads::Threads)

set(_mtok_map ${PROJECT_SOURCE_DIR}/cmake/mtok.map)
add_library(mtok SHARED $<TARGET_OBJECTS:mtok_objects>)
add_library(mtok_static STATIC $<TARGET_OBJECTS:mtok_objects>)
foreach(target mtok mtok_static)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/cpp/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC Threads::Threads)
  target_compile_features(${target} INTERFACE cxx_std_17)
endforeach()
set_target_properties(mtok PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
                      LINK_DEPENDS ${_mtok_map})
target_link_options(mtok PRIVATE "LINKER:--version-script=${_mtok_map}")
if(NOT MTOK_SANITIZE)  # a sanitized library leaves the runtime's symbols to the program
  target_link_options(mtok PRIVATE "LINKER:--no-undefined")
endif()
set_target_properties(mtok_static PROPERTIES OUTPUT_NAME mtok)
# A C program that links libmtok.a links with the C compiler: it needs the
# C++ runtime the library was built with.
set(MTOK_CXX_RUNTIME ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
list(FILTER MTOK_CXX_RUNTIME INCLUDE REGEX "^(stdc\\+\\+|c\\+\\+|c\\+\\+abi|m)$")
target_link_libraries(mtok_static INTERFACE "$<$<NOT:$<LINK_LANGUAGE:CXX>>:${MTOK_CXX_RUNTIME}>")
list(TRANSFORM MTOK_CXX_RUNTIME PREPEND "-l" OUTPUT_VARIABLE _mtok_runtime_flags)
string(JOIN " " MTOK_PC_LIBS_PRIVATE ${_mtok_runtime_flags} -pthread)
add_library(mtok::mtok ALIAS mtok)
add_library(mtok::mtok_static ALIAS mtok_static)

install(TARGETS mtok mtok_static EXPORT mtokTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The public API's headers. Others in cpp/include/mtok serve the Python
# bindings only; their symbols are not exported, so they are not installed.
set(MTOK_PUBLIC_HEADERS mtok.h export.h status.h buffer.h encoding.h tokenizer.h decode_stream.h)
list(TRANSFORM MTOK_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/cpp/include/mtok/)
install(FILES ${MTOK_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mtok)

set(_mtok_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/mtok)
install(EXPORT mtokTargets NAMESPACE mtok:: DESTINATION ${_mtok_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mtokConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mtokConfig.cmake INSTALL_DESTINATION ${_mtok_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mtokConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mtokConfig.cmake ${PROJECT_BINARY_DIR}/mtokConfigVersion.cmake
        DESTINATION ${_mtok_cmake_dir})

# pkg-config: `pkg-config --cflags --libs mtok`, or with --static for libmtok.a.
file(RELATIVE_PATH MTOK_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" MTOK_PC_TO_PREFIX "${MTOK_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/mtok.pc.in ${PROJECT_BINARY_DIR}/mtok.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mtok.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
