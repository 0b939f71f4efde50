// placeholder: implemented by its owner
#include <gdmap/reader/map_view.hpp>
