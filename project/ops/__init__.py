"""Operating the product: management commands above every domain app."""
