"""What viewers do: their progress, what they finished."""
