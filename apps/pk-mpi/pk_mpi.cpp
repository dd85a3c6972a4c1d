// pk-mpi: the distributed filter on an image file, under mpiexec.
//   mpiexec -n 4 pk-mpi filter IN OUT --kernel NAME [--border MODE] [--backend NAME]
// Process 0 reads IN (PNG or JPEG) and sends each process its block of the process grid; every
// process filters its block with pk::mpi::apply (8-bit pixels, as `pk filter` without --float;
// `sobel` on a colour image converts it to gray first, as there), and process 0 gathers the
// blocks and writes OUT. The image is the same as `pk filter IN OUT --kernel NAME` writes.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/image_io.hpp>
#include <pk/mpi/filter.hpp>
#include <pk/runtime.hpp>

namespace {

const char* usage =
    "usage: mpiexec -n P pk-mpi filter IN OUT --kernel NAME [--border MODE] [--backend NAME] [--gpus N]\n"
    "  the distributed filter (pk::mpi::apply) of an 8-bit PNG or JPEG image; kernels and borders as\n"
    "  in `pk filter --help`; backend: serial, openmp or cuda (default: the fastest compiled in);\n"
    "  --gpus N: on cuda, the processes of a machine share its N GPUs by local rank (default 1)\n";

// Raises pk::error on every process with process 0's message, when it has one.
void from_root(const std::string& message, MPI_Comm comm) {
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  if (length == 0) return;
  std::string text(static_cast<std::size_t>(length), ' ');
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) text = message;
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, comm);
  throw pk::error(text);
}

// A block of the whole image, copied out of it (into it).
std::vector<std::uint8_t> cut(const pk::image<std::uint8_t>& whole, const pk::mpi::block& b) {
  std::vector<std::uint8_t> out;
  const std::size_t run = std::size_t(b.width()) * whole.channels;
  out.reserve(std::size_t(b.height()) * run);
  for (auto y = b.rows.begin; y < b.rows.end; ++y) {
    const auto* row = whole.pixels.data() + (std::size_t(y) * whole.width + b.cols.begin) * whole.channels;
    out.insert(out.end(), row, row + run);
  }
  return out;
}
void paste(pk::image<std::uint8_t>& whole, const pk::mpi::block& b, const std::uint8_t* data) {
  const std::size_t run = std::size_t(b.width()) * whole.channels;
  for (auto y = b.rows.begin; y < b.rows.end; ++y)
    std::memcpy(whole.pixels.data() + (std::size_t(y) * whole.width + b.cols.begin) * whole.channels,
                data + std::size_t(y - b.rows.begin) * run, run);
}

int filter(int argc, char** argv) {
  std::string in_path, out_path, kernel, border_name = "reflect101", backend_name;
  int gpus = 1;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&] {
      if (i + 1 >= argc) throw pk::error("pk-mpi filter: " + a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--kernel") kernel = value();
    else if (a == "--border") border_name = value();
    else if (a == "--backend") backend_name = value();
    else if (a == "--gpus") gpus = std::stoi(value());
    else if (!a.empty() && a[0] == '-') throw pk::error("pk-mpi filter: unknown option " + a + "\n" + usage);
    else if (in_path.empty()) in_path = a;
    else if (out_path.empty()) out_path = a;
    else throw pk::error("pk-mpi filter: one input and one output, got also '" + a + "'");
  }
  if (in_path.empty() || out_path.empty() || kernel.empty()) throw pk::error(std::string("pk-mpi filter: ") + usage);
  const pk::filter_spec spec = pk::parse_filter(kernel);
  const pk::border border = pk::parse_border(border_name);
  if (gpus < 1) throw pk::error("pk-mpi filter: --gpus must be >= 1, got " + std::to_string(gpus));
  // On a GPU backend each process takes GPU (its rank on this machine) % gpus.
  pk::runtime_options options;
  if (backend_name == "cuda") options.device = pk::mpi::local_rank(MPI_COMM_WORLD) % gpus;
  pk::runtime kokkos(options);
  const pk::backend on = backend_name.empty() ? pk::default_backend() : pk::parse_backend(backend_name);
  const pk::mpi::grid g(MPI_COMM_WORLD);

  // Process 0 reads the image; everyone learns its size.
  pk::image<std::uint8_t> whole;
  std::string problem;
  if (g.rank() == 0) {
    try {
      whole = pk::load_image(in_path);
      if (spec.op == pk::filter_op::sobel_magnitude && whole.channels > 1) whole = pk::to_gray(whole);
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  from_root(problem, g.comm());
  int shape[3] = {whole.height, whole.width, whole.channels};
  MPI_Bcast(shape, 3, MPI_INT, 0, g.comm());
  const int height = shape[0], width = shape[1], C = shape[2];

  // Blocks out and back, process 0 to each process and back.
  const auto b = pk::mpi::local_block(g, height, width);
  std::vector<std::uint8_t> in(std::size_t(b.height()) * b.width() * C), out(in.size());
  for (int p = 0; p < g.size(); ++p) {
    const pk::mpi::block bp = pk::mpi::block_of_process(g, p, height, width);
    if (g.rank() == 0) {
      auto piece = cut(whole, bp);
      if (p == 0)
        in = std::move(piece);
      else
        MPI_Send(piece.data(), static_cast<int>(piece.size()), MPI_UNSIGNED_CHAR, p, 0, g.comm());
    } else if (g.rank() == p) {
      MPI_Recv(in.data(), static_cast<int>(in.size()), MPI_UNSIGNED_CHAR, 0, 0, g.comm(), MPI_STATUS_IGNORE);
    }
  }
  const double start = MPI_Wtime();
  pk::mpi::apply(on, g, height, width, spec, pk::image_ref<const std::uint8_t>{in.data(), int(b.height()), int(b.width()), C},
                 pk::image_ref<std::uint8_t>{out.data(), int(b.height()), int(b.width()), C}, border);
  const double seconds = MPI_Wtime() - start;
  for (int p = 0; p < g.size(); ++p) {
    const pk::mpi::block bp = pk::mpi::block_of_process(g, p, height, width);
    if (g.rank() == 0) {
      if (p == 0) {
        paste(whole, bp, out.data());
      } else {
        std::vector<std::uint8_t> piece(std::size_t(bp.height()) * bp.width() * C);
        MPI_Recv(piece.data(), static_cast<int>(piece.size()), MPI_UNSIGNED_CHAR, p, 1, g.comm(), MPI_STATUS_IGNORE);
        paste(whole, bp, piece.data());
      }
    } else if (g.rank() == p) {
      MPI_Send(out.data(), static_cast<int>(out.size()), MPI_UNSIGNED_CHAR, 0, 1, g.comm());
    }
  }
  problem.clear();
  if (g.rank() == 0) {
    try {
      pk::save_image(out_path, whole);
      std::printf("%s: %dx%d, %d channel%s -> %s; kernel %s, border %s, %d processes (%d x %d grid), backend %s: "
                  "%.3f ms\n",
                  in_path.c_str(), width, height, C, C == 1 ? "" : "s", out_path.c_str(), kernel.c_str(),
                  pk::to_string(border), g.size(), g.rows(), g.cols(), pk::to_string(on), seconds * 1e3);
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  from_root(problem, g.comm());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    if (argc < 2 || std::string(argv[1]) != "filter") throw pk::error(std::string("pk-mpi: ") + usage);
    status = filter(argc, argv);
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "pk-mpi: error: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
