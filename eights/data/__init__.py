"""Data files shipped with eights (the Crazier Eights card set)."""
