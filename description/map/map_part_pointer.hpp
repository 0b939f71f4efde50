#pragma once
// The JSON pointer of a MapPart, which the map writer's errors name.
#include <gdmap/schema/map_description.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <string>

namespace gdmap::description {

// As gdmap::mapPartPointer(); without a description (a map streamed from
// its JSON, where the builder's dictionary i is /dictionaries/i), only
// dictionaries and /layout have pointers.
std::string mapPartPointer(const MapDescription* description, const MapPart& part);

}  // namespace gdmap::description
