// placeholder: implemented by its owner
#include <gdmap/reader/map_check.hpp>
