# gdmap_add_library(NAME [DEPENDS targets...] [PRIVATE_DEPENDS targets...])
# One static library per source folder, built from every .cpp in it and
# exported as gdmap::NAME (the package component NAME). Its public headers
# are the folder's include/gdmap/... tree, the only headers installed; every
# other header in the folder is private to it.
function(gdmap_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;PRIVATE_DEPENDS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  add_library(gdmap_${name} STATIC ${sources})
  add_library(gdmap::${name} ALIAS gdmap_${name})
  set_target_properties(gdmap_${name} PROPERTIES
      EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(gdmap_${name} PUBLIC
      "$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>"
      "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  target_compile_features(gdmap_${name} PUBLIC cxx_std_20)
  target_link_libraries(gdmap_${name} PUBLIC ${ARG_DEPENDS}
      PRIVATE ${ARG_PRIVATE_DEPENDS} $<BUILD_INTERFACE:gdmap_warnings>)
  if(GDMAP_INSTALL)
    install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/include/"
            DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT ${name})
    install(TARGETS gdmap_${name} EXPORT gdmap-${name}-targets
            ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT ${name})
    install(EXPORT gdmap-${name}-targets NAMESPACE gdmap::
            DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/gdmap" COMPONENT ${name})
  endif()
endfunction()
