"""The embed page, the demo publisher page, and (in development) the media and built assets."""
