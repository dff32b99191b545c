"""The demo catalogue: its description, its seeder and the generator of its sample media."""
