#pragma once
// Filters of an image distributed over a process grid (<pk/mpi/grid.hpp>): each process holds its
// block of the global height x width image (local_block: rows, columns, all channels, dense and
// interleaved as pk::image) and gets its block of the result, bit-identical to pk::filter on the
// whole image with the same backend. Collective over the grid; every process passes the same global
// sizes, kernel and border.
//
// How: while the rows of the block's halo (the filter radius R around it) come from the neighbours
// above and below by non-blocking messages, the one-process filter runs on the block alone (its
// outputs R or more pixels inside need no halo); then the columns of the halo, over the full height
// with its rows (so the corners come along), from the neighbours left and right; then the outputs
// within R of the block's edge are computed again from windows of the block with its halo. At the
// image's edges the halo comes from the block itself by the border rule (wrap: from the opposite
// process; the grid is periodic then). Blocks must be at least R + 1 pixels in every direction
// that is split over several processes (pk::error names the sizes otherwise, on every process).
#include <cstdint>

#include <pk/filter.hpp>
#include <pk/mpi/grid.hpp>

namespace pk::mpi {

void filter(backend on, const grid& g, std::int64_t height, std::int64_t width, image_ref<const float> in,
            image_ref<float> out, const filter_kernel& k, border b = border::reflect101);
void filter(backend on, const grid& g, std::int64_t height, std::int64_t width, image_ref<const std::uint8_t> in,
            image_ref<std::uint8_t> out, const filter_kernel& k, border b = border::reflect101);
void apply(backend on, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           image_ref<const float> in, image_ref<float> out, border b = border::reflect101);
void apply(backend on, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out, border b = border::reflect101);

}  // namespace pk::mpi
