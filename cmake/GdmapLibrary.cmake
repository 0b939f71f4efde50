# gdmap_add_library(NAME [DEPENDS targets...])
# One static library per source folder, built from every .cpp in it, exported
# as gdmap::NAME.
function(gdmap_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  add_library(gdmap_${name} STATIC ${sources})
  add_library(gdmap::${name} ALIAS gdmap_${name})
  set_target_properties(gdmap_${name} PROPERTIES
      EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(gdmap_${name} PUBLIC
      "$<BUILD_INTERFACE:${GDMAP_BUILD_INCLUDE_DIR}>"
      "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  target_compile_features(gdmap_${name} PUBLIC cxx_std_20)
  target_link_libraries(gdmap_${name} PUBLIC ${ARG_DEPENDS}
      PRIVATE $<BUILD_INTERFACE:gdmap_warnings>)
endfunction()
