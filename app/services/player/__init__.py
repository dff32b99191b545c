"""The player page's decisions: its parameters, the episode to open, whether the content may play."""
