// gdmap: build, read, check and verify .NET Native generic dictionary maps and IL-to-native maps.
#include "app/cli_app.hpp"

int main(int argc, char** argv) { return gdmap::cli::runCommandLine(argc, argv); }
