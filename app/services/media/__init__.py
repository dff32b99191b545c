"""Video brought in by editors (issue 35): what a source file holds (``probe``), and what is made from it."""
