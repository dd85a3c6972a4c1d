#pragma once
// Printing measurements: the table of `pk demo`, and the one-run summary of `pk add` / `pk matmul`.
#include <cstdio>
#include <string>
#include <vector>

#include "measurement.hpp"

namespace pk_app {

void print_table(const std::vector<measurement>& rows, std::FILE* to = stdout);
// "add float 2^24 on openmp: 12.3 ms (median of 5), 40.9 GB/s[, max rel. error 3e-08 <= 6e-08 PASS]"
void print_summary(const measurement& m, pk::backend on, std::FILE* to = stdout);
// The rows as JSON into path ("-": standard output): the command, backend, device, pk's version,
// the date, and per row kernel, size, ms, runs, throughput, unit and the check. Throws pk::error
// naming the file when it cannot be written.
void require_writable(const std::string& command, const std::string& path);  // before the work
void write_json(const std::string& command, const std::vector<measurement>& rows, pk::backend on,
                const std::string& path);

}  // namespace pk_app
