"""Catalogue search: the query, the index it reads, and the text rules both share."""
