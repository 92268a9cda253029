// Varlink module: see DESIGN.md §1. (placeholder, replaced by its implementation)
