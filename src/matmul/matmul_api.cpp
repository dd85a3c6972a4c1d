// Filled in by the matmul kernel.
