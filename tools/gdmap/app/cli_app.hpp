#pragma once
// The gdmap command line, read and run (cli_app.cpp, the one file that
// sees the parser).

namespace gdmap::cli {

// Parses `argv`, runs the command it names and returns the exit status
// (exit_status.hpp): 2 for a command line the parser refused.
int runCommandLine(int argc, char** argv);

}  // namespace gdmap::cli
