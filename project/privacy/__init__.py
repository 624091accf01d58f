"""What each audience sees of a player: one module every surface reads (docs/privacy.md)."""
