// placeholder: implemented by its owner
#include <gdmap/reader/mapped_file.hpp>
