// placeholder: implemented by its owner
#include <gdmap/writer/map_builder.hpp>
