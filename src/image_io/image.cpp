// Filled in by image I/O.
