// `pk filter` in builds without image I/O (PK_WITH_IMAGE_IO=OFF, or no libpng/libjpeg): the
// other commands work; this one says why it cannot.
#include <pk/error.hpp>

#include "commands.hpp"

namespace pk_app {

int cmd_filter(const std::vector<std::string>&) {
  throw pk::error("this build has no image I/O, so no pk filter (configure with -DPK_WITH_IMAGE_IO=ON; "
                  "it needs libpng and libjpeg)");
}

}  // namespace pk_app
