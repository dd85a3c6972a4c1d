#pragma once
// The commands of the `pk` program, one per file (cmd_<name>.cpp). Each receives the arguments
// after its name with the global options (--backend, --device, --threads) already taken out
// (see apps/harness/options.hpp), returns the exit status, and reports bad input by throwing pk::error:
// main prints it as the one line "pk: error: <message>" and exits with status 1.
#include <string>
#include <vector>

namespace pk_app {

int cmd_info(const std::vector<std::string>& args);
int cmd_demo(const std::vector<std::string>& args);
int cmd_add(const std::vector<std::string>& args);
int cmd_matmul(const std::vector<std::string>& args);
int cmd_filter(const std::vector<std::string>& args);

}  // namespace pk_app
