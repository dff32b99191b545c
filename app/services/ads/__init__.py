"""Ads: which placements a content gets, and the VAST documents of house ads."""
