# How gdmap's folders become libraries. One folder, one static library:
# gdmap_add_library(reader_map ...) in reader/map/ builds every .cpp there
# into gdmap::reader_map. A library's public headers are its folder's
# include/gdmap/... tree, the only headers installed; every other header in
# the folder is private to it. Libraries are installed in components (the
# `find_package(gdmap COMPONENTS ...)` names): a component is one library,
# or an interface target that gathers the libraries of one layer.

# gdmap_add_library(NAME [COMPONENT C] [DEPENDS targets...] [PRIVATE_DEPENDS targets...])
function(gdmap_add_library name)
  cmake_parse_arguments(ARG "" "COMPONENT" "DEPENDS;PRIVATE_DEPENDS" ${ARGN})
  if(NOT ARG_COMPONENT)
    set(ARG_COMPONENT ${name})
  endif()
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  add_library(gdmap_${name} STATIC ${sources})
  add_library(gdmap::${name} ALIAS gdmap_${name})
  set_target_properties(gdmap_${name} PROPERTIES
      EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/include")
    target_include_directories(gdmap_${name} PUBLIC
        "$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>"
        "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  endif()
  target_compile_features(gdmap_${name} PUBLIC cxx_std_20)
  target_link_libraries(gdmap_${name} PUBLIC ${ARG_DEPENDS}
      PRIVATE ${ARG_PRIVATE_DEPENDS} $<BUILD_INTERFACE:gdmap_warnings>)
  if(GDMAP_INSTALL)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/include")
      install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/include/"
              DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT ${ARG_COMPONENT})
    endif()
    install(TARGETS gdmap_${name} EXPORT gdmap-${ARG_COMPONENT}-targets
            ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT ${ARG_COMPONENT})
  endif()
endfunction()

# gdmap_add_component(NAME [LIBRARIES targets...]): the installed unit NAME.
# With LIBRARIES, gdmap::NAME is an interface target that links them all
# (gdmap::reader is the map, IL, signature, PE and R2R readers); without,
# NAME is the one library of that name.
function(gdmap_add_component name)
  cmake_parse_arguments(ARG "" "" "LIBRARIES" ${ARGN})
  if(ARG_LIBRARIES)
    add_library(gdmap_${name} INTERFACE)
    add_library(gdmap::${name} ALIAS gdmap_${name})
    set_target_properties(gdmap_${name} PROPERTIES EXPORT_NAME ${name})
    target_link_libraries(gdmap_${name} INTERFACE ${ARG_LIBRARIES})
    if(GDMAP_INSTALL)
      install(TARGETS gdmap_${name} EXPORT gdmap-${name}-targets COMPONENT ${name})
    endif()
  endif()
  if(GDMAP_INSTALL)
    install(EXPORT gdmap-${name}-targets NAMESPACE gdmap::
            DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/gdmap" COMPONENT ${name})
  endif()
endfunction()
