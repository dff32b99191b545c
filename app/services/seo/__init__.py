"""Sitemaps and robots.txt, generated ahead."""
