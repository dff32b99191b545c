"""Playlists (spec §7 "Catalogue: types and playlists"): who may read and change which (access.py), a viewer's own
playlists and the editors' ones (playlists.py), and their contents (contents.py)."""
