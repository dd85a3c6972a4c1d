// Filled in by the filter kernel.
