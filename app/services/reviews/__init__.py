"""Reviews of contents, their votes, and their moderation (app/models/reviews.py)."""
