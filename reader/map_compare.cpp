// placeholder: implemented by its owner
#include <gdmap/reader/map_compare.hpp>
